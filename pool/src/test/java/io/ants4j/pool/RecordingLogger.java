package io.ants4j.pool;

import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;

/** A {@link System.Logger} that records what it is given and, if made failing, then throws. */
final class RecordingLogger implements System.Logger {
    final List<Level> levels = new CopyOnWriteArrayList<>();
    final List<String> messages = new CopyOnWriteArrayList<>();
    final List<Throwable> thrown = new CopyOnWriteArrayList<>();
    private final boolean fails;

    RecordingLogger() {
        this(false);
    }

    /** A logger that throws {@code IllegalStateException("logger fault")} after recording, if {@code fails}. */
    RecordingLogger(boolean fails) {
        this.fails = fails;
    }

    @Override
    public String getName() {
        return "recording";
    }

    @Override
    public boolean isLoggable(Level level) {
        return true;
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String msg, Throwable t) {
        messages.add(msg);
        levels.add(level);
        thrown.add(t);
        if (fails) {
            throw new IllegalStateException("logger fault");
        }
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        messages.add(format);
        levels.add(level);
    }
}
