package io.ants4j.channels;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own ({@link TheTimerThreadKeepsNothingOfItsFirstCallerTest}): a thread of a thread group of its
 * own (a web application's workers, say), at the lowest priority, with a context class loader of its own and an
 * inheritable thread-local value makes the JVM's first Chan.after and ends; prints {@code OK} if, once nothing else
 * refers to them, the group, the loader and the value are collected, and the timer thread runs at normal priority.
 */
final class TimerThreadInheritanceProbe {
    private static final InheritableThreadLocal<Object> REQUEST = new InheritableThreadLocal<>();
    /** A timer of an hour, made by the caller: the timer thread, which ends once idle for 1 s, stays for the probe. */
    private static volatile Chan<Instant> pending;

    private TimerThreadInheritanceProbe() {
    }

    public static void main(String[] args) throws Exception {
        WeakReference<?>[] refs = new WeakReference<?>[3];
        ThreadGroup workers = new ThreadGroup("webapp-workers");
        refs[2] = new WeakReference<>(workers);
        Thread caller = Thread.ofPlatform().group(workers).priority(Thread.MIN_PRIORITY).start(() -> {
            ClassLoader webapp = new URLClassLoader(new URL[0], null);
            Object value = new byte[1 << 20];
            refs[0] = new WeakReference<>(webapp);
            refs[1] = new WeakReference<>(value);
            Thread.currentThread().setContextClassLoader(webapp);
            REQUEST.set(value);
            try {
                Chan<Instant> c = Chan.after(Duration.ofMillis(1));
                pending = Chan.after(Duration.ofHours(1));
                if (c.poll(10, TimeUnit.SECONDS) == null) {
                    throw new AssertionError("no value within 10 s");
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            REQUEST.remove();
        });
        caller.join();
        caller = null; // the ended caller itself still refers to its context class loader
        workers = null;
        Thread timerThread = Timers.thread();
        int priority = timerThread.getPriority();
        for (int i = 0; i < 20 && (refs[0].get() != null || refs[1].get() != null || refs[2].get() != null); i++) {
            System.gc();
        }
        List<String> kept = new ArrayList<>();
        if (refs[0].get() != null) {
            kept.add("its context class loader");
        }
        if (refs[1].get() != null) {
            kept.add("its inheritable thread-local value");
        }
        if (refs[2].get() != null) {
            kept.add("its thread group");
        }
        if (!timerThread.isAlive() || Timers.thread() != timerThread || pending.len() != 0) {
            System.out.println("setup: the timer thread, kept by a pending timer of an hour, ended");
            System.exit(0);
        }
        System.out.println(kept.isEmpty() && priority == Thread.NORM_PRIORITY ? "OK" : "FAILED: the first caller of"
                + " Chan.after (thread group 'webapp-workers', priority 1) ended, yet the timer thread keeps " + kept
                + " reachable for the JVM's life, at priority " + priority);
        System.exit(0);
    }
}
