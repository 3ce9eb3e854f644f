package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

/**
 * The initialization of the {@link SingleFlight} class (its throwaway calls that link the state changes) leaves the
 * initializing thread's interrupt status as it found it: the first {@code new SingleFlight<>()} (or any first use)
 * of an interrupted thread must not clear its interrupt, which would be lost.
 */
class SingleFlightInitializationTest {

    @Test
    void theFirstUseOfSingleFlightKeepsTheThreadsInterruptStatus() throws Exception {
        URL classes = SingleFlight.class.getProtectionDomain().getCodeSource().getLocation();
        // a loader of its own, so that the class is initialized here, whatever other tests ran in this JVM
        try (URLClassLoader fresh = new URLClassLoader(new URL[] {classes}, null)) {
            Class<?> loaded = Class.forName(SingleFlight.class.getName(), false, fresh); // loaded, not initialized
            assertNotSame(SingleFlight.class, loaded, "setup: the class is loaded anew");
            Thread.currentThread().interrupt();
            boolean interruptedAfter;
            try {
                Class.forName(loaded.getName(), true, fresh); // runs its static initializer, nothing else
            } finally {
                interruptedAfter = Thread.interrupted();
            }
            assertTrue(interruptedAfter, "initializing SingleFlight cleared the interrupt status of the thread");
        }
    }
}
