package io.ants4j.channels;

/**
 * The exceptions of interrupted waits, made so that an interrupt is never lost with an {@link OutOfMemoryError}: the
 * interrupt status stays set until the exception exists (as in the primitives' class of the same name; the modules
 * share no code).
 */
final class Interrupts {
    private Interrupts() {
    }

    /** Throws an {@link InterruptedException} if the interrupt status is set, clearing it once the exception exists. */
    static void throwIfInterrupted() throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            InterruptedException e = new InterruptedException();
            Thread.interrupted();
            throw e;
        }
    }

    /** The exception of a wait that consumed the interrupt status; if it cannot be made, the status is set again. */
    static InterruptedException consumed() {
        try {
            return new InterruptedException();
        } catch (Throwable noMemory) {
            Thread.currentThread().interrupt();
            throw noMemory;
        }
    }
}
