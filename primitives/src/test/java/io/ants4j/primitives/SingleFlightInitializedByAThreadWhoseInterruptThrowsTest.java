package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * f732584 made SingleFlight's class initialization clear the initializing thread's interrupt status and set it
 * again with {@code Thread.currentThread().interrupt()} (CHANGELOG, Fixed: "the class's initialization no longer
 * clears the initializing thread's interrupt status"). On a thread whose {@code interrupt()} throws (a
 * {@code Thread} subclass: the case 558ade9 fixed for SpinLock.lock and the pool's runPayload), that throw escapes
 * the static initializer: the first use of SingleFlight throws ExceptionInInitializerError, and the class is
 * unusable in the JVM for ever after (NoClassDefFoundError on every later {@code new SingleFlight<>()}, in any
 * thread). Before f732584 the initialization called no interrupt(). The class is loaded in a class loader of its
 * own, so that the test does not depend on whether another test initialized it first.
 */
class SingleFlightInitializedByAThreadWhoseInterruptThrowsTest {

    @Test
    void anInterruptedThreadWhoseInterruptThrowsCanInitializeSingleFlight() throws Exception {
        URL classes = SingleFlight.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader fresh = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
            AtomicReference<Throwable> firstUse = new AtomicReference<>();
            AtomicReference<Throwable> laterUse = new AtomicReference<>();
            Thread initializer = new Thread(() -> {
                Thread.currentThread().interrupt();
                try {
                    Class.forName(SingleFlight.class.getName(), true, fresh).getConstructor().newInstance();
                } catch (Throwable t) {
                    firstUse.set(t);
                }
            }, "interrupt-throws") {
                private volatile boolean interruptsRefused;

                @Override
                public void interrupt() {
                    if (interruptsRefused) {
                        throw new UnsupportedOperationException("this thread refuses interrupts");
                    }
                    interruptsRefused = true; // the first (the test's own) sets the status
                    super.interrupt();
                }
            };
            initializer.start();
            initializer.join(TimeUnit.SECONDS.toMillis(10));
            assertTrue(!initializer.isAlive(), "the initializing thread did not end");
            try {
                Class.forName(SingleFlight.class.getName(), true, fresh).getConstructor().newInstance();
            } catch (Throwable t) {
                laterUse.set(t);
            }
            assertAll(
                    () -> assertNull(firstUse.get(), "the first new SingleFlight<>(), on an interrupted thread whose"
                            + " interrupt() throws, threw: " + firstUse.get() + " caused by "
                            + (firstUse.get() == null ? null : firstUse.get().getCause())),
                    () -> assertNull(laterUse.get(), "a later new SingleFlight<>() on an ordinary thread threw: "
                            + laterUse.get()));
        }
    }
}
