package io.ants4j.pool;

import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * What the tests of user code run by {@code shutdownNow()} share: a task blocked on a channel whose interrupt
 * throws (so that {@code shutdownNow} logs an error), and a logger that acts on that error.
 */
final class ShutdownNowLoggerFixtures {
    private ShutdownNowLoggerFixtures() {
    }

    /** A channel whose close, as an interrupt of the thread blocked on it performs it, throws. */
    static final class FailingCloseChannel extends AbstractInterruptibleChannel {
        final CountDownLatch blocked = new CountDownLatch(1);
        final AtomicBoolean interrupted = new AtomicBoolean();
        private final CountDownLatch closeTried = new CountDownLatch(1);

        @Override
        protected void implCloseChannel() {
            closeTried.countDown();
            throw new IllegalStateException("injected: closing the channel of an interrupted thread");
        }

        /**
         * Blocks on the channel until the interrupting thread has tried to close it, or {@code release} opens (60 s
         * at most). It waits for the close, not for its interrupt status: the interrupt sets the status before it
         * closes the channel, and a thread that ended its I/O on seeing the status would close the channel itself
         * ({@code end()} does), so that the interrupting thread's close would find it closed and not throw.
         */
        void blockUntil(CountDownLatch release) {
            begin();
            boolean seen = false;
            try {
                blocked.countDown();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (closeTried.getCount() > 0 && release.getCount() > 0 && System.nanoTime() < deadline) {
                    try {
                        closeTried.await(1, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        seen = true; // the status is set before the close: wait for the close
                    }
                }
            } finally {
                interrupted.set(seen | Thread.interrupted());
                try {
                    end(false);
                } catch (Exception ignored) {
                    // ClosedByInterruptException
                }
            }
        }
    }

    /** A logger that runs {@code onError} the first time it logs at {@code ERROR}, and records every call. */
    static final class ErrorHook implements System.Logger {
        final AtomicReference<Runnable> onError = new AtomicReference<>();
        /** Each call's level and message, for a failing test to show. */
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public String getName() {
            return "error-hook";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            calls.add(level + " " + msg + " " + thrown);
            error(level);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            calls.add(level + " " + format);
            error(level);
        }

        @Override
        public void log(Level level, Supplier<String> msgSupplier, Throwable thrown) {
            calls.add(level + " " + thrown);
            error(level);
        }

        private void error(Level level) {
            Runnable r = level == Level.ERROR ? onError.getAndSet(null) : null;
            if (r != null) {
                r.run();
            }
        }
    }
}
