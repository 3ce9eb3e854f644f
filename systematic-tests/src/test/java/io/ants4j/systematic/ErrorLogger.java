package io.ants4j.systematic;

import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A pool's logger for the Fray tests: keeps the throwable of every call at {@code ERROR} (null if the call had
 * none), and runs an action of the test, on the logging thread, at the first such call.
 */
final class ErrorLogger implements System.Logger {
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final AtomicReference<Runnable> atFirstError;

    /** A logger that only keeps what it is told. */
    ErrorLogger() {
        this(() -> { });
    }

    /** A logger that also runs {@code atFirstError} when it is first called at {@code ERROR}. */
    ErrorLogger(Runnable atFirstError) {
        this.atFirstError = new AtomicReference<>(atFirstError);
    }

    /** The throwables logged at {@code ERROR} so far, in order. */
    List<Throwable> errors() {
        return new ArrayList<>(errors);
    }

    @Override
    public String getName() {
        return "fray-errors";
    }

    @Override
    public boolean isLoggable(Level level) {
        return true;
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
        logged(level, thrown);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
        logged(level, null);
    }

    private void logged(Level level, Throwable thrown) {
        if (level != Level.ERROR) {
            return;
        }
        errors.add(thrown);
        Runnable action = atFirstError.getAndSet(null);
        if (action != null) {
            action.run();
        }
    }
}
