package io.ants4j.channels;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own ({@link TheTimerThreadKeepsNothingOfItsFirstCallerTest}): a thread with a context class
 * loader of its own and an inheritable thread-local value makes the JVM's first Chan.after and ends; prints
 * {@code OK} if, once nothing else refers to them, the loader and the value are collected.
 */
final class TimerThreadInheritanceProbe {
    private static final InheritableThreadLocal<Object> REQUEST = new InheritableThreadLocal<>();

    private TimerThreadInheritanceProbe() {
    }

    public static void main(String[] args) throws Exception {
        WeakReference<?>[] refs = new WeakReference<?>[2];
        Thread caller = Thread.ofPlatform().start(() -> {
            ClassLoader webapp = new URLClassLoader(new URL[0], null);
            Object value = new byte[1 << 20];
            refs[0] = new WeakReference<>(webapp);
            refs[1] = new WeakReference<>(value);
            Thread.currentThread().setContextClassLoader(webapp);
            REQUEST.set(value);
            try {
                Chan<Instant> c = Chan.after(Duration.ofMillis(1));
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
        for (int i = 0; i < 20 && (refs[0].get() != null || refs[1].get() != null); i++) {
            System.gc();
        }
        String loader = refs[0].get() == null ? "" : "its context class loader";
        String value = refs[1].get() == null ? "" : "its inheritable thread-local value";
        System.out.println(loader.isEmpty() && value.isEmpty() ? "OK" : "FAILED: the first caller of Chan.after ended,"
                + " yet the timer thread keeps " + loader + (loader.isEmpty() || value.isEmpty() ? "" : " and ")
                + value + " reachable for the JVM's life");
        System.exit(0);
    }
}
