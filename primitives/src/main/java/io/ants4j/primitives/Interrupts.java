package io.ants4j.primitives;

/**
 * How an interruptible wait of the primitives reports an interrupt: with an {@link InterruptedException}, the
 * thread's interrupt status cleared, as {@code Lock}, {@code Condition} and the JDK's synchronizers do; and, on a
 * heap with no room for that exception, with the {@link OutOfMemoryError}, the interrupt status still set, so
 * that the caller can still see the interrupt (the JDK's synchronizers clear the status first, and lose it then).
 *
 * <p>Implementation notes. Every interruptible wait calls {@link #throwIfInterrupted} on entry, so this class is
 * loaded (its {@code Class} object is on the heap) before a wait can consume an interrupt: {@link #consumed} then
 * needs no class loading. On an exhausted heap the first entry check of all may fail to load the class: that error
 * comes before the status is read, which it leaves set.
 */
final class Interrupts {
    private Interrupts() {
    }

    /**
     * Throws an {@link InterruptedException} if the current thread's interrupt status is set, clearing it. The
     * exception is made before the status is cleared.
     */
    static void throwIfInterrupted() throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            InterruptedException e = new InterruptedException();
            Thread.interrupted();
            throw e;
        }
    }

    /**
     * The exception for a wait that has consumed the interrupt status (and left what it waited for); if it cannot
     * be made, the status is set again before the error propagates.
     */
    static InterruptedException consumed() {
        try {
            return new InterruptedException();
        } catch (Throwable noMemory) {
            Thread.currentThread().interrupt();
            throw noMemory;
        }
    }
}
