package io.ants4j.channels;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own ({@link TheTimerThreadKeepsNothingOfItsFirstCallerTest}): a
 * low-priority thread of a thread group of its own (a web application's worker group, say) makes the JVM's first
 * Chan.after and ends; prints {@code OK} if the timer thread kept neither its group nor its priority.
 */
final class TimerThreadGroupProbe {

    private TimerThreadGroupProbe() {
    }

    public static void main(String[] args) throws Exception {
        ThreadGroup group = new ThreadGroup("webapp-workers");
        WeakReference<ThreadGroup> ref = new WeakReference<>(group);
        Thread caller = Thread.ofPlatform().group(group).priority(Thread.MIN_PRIORITY).start(() -> {
            try {
                Chan<Instant> c = Chan.after(Duration.ofMillis(1));
                if (c.poll(10, TimeUnit.SECONDS) == null) {
                    throw new AssertionError("no value within 10 s");
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        caller.join();
        caller = null;
        group = null;
        Thread timer = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("ants4j-channels-timer")).findFirst().orElseThrow();
        String groupName = timer.getThreadGroup() == null ? "none" : timer.getThreadGroup().getName();
        int priority = timer.getPriority();
        timer = null;
        for (int i = 0; i < 20 && ref.get() != null; i++) {
            System.gc();
        }
        boolean groupKept = ref.get() != null;
        System.out.println(!groupKept && priority == Thread.NORM_PRIORITY ? "OK" : "FAILED: the first caller of "
                + "Chan.after (thread group 'webapp-workers', priority 1) ended, yet the timer thread is in group '"
                + groupName + "'" + (groupKept ? ", which it keeps reachable for the JVM's life," : "")
                + " at priority " + priority + " for the JVM's life");
        System.exit(0);
    }
}
