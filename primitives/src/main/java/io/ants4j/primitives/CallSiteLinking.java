package io.ants4j.primitives;

/**
 * The linking of a primitive's {@code VarHandle} call sites: running each once, on throwaway objects, before any
 * object of the class has state. The first run of a call site in the JVM links it, which allocates, and a
 * primitive must not run out of memory in the middle of a state change for that.
 *
 * <p>Class initialization links ({@link #attempt}), but a failure there would be final: the JVM refuses for good
 * a class whose initialization threw, and linking allocates far more than the lookups of the handles. So a
 * failure is left to the constructors, which call {@link #ensure} before the object has state: on a heap still
 * exhausted the constructor throws (no object, nothing changed), and once memory is back the next one links.
 */
abstract class CallSiteLinking {
    private static final int UNLINKED = 0;
    private static final int LINKING = 1;
    private static final int LINKED = 2;

    /** Read by every constructor; a plain volatile field, which needs no linking itself. */
    private volatile int state;

    /**
     * Runs each call site once. May make objects of the class: their constructors' {@link #ensure} returns at
     * once in the linking thread. (A subclass, not a lambda: a lambda's first creation allocates far more.)
     */
    abstract void runEachCallSite();

    /** Links if it can; for class initialization, which must not throw for it. */
    void attempt() {
        try {
            ensure();
        } catch (Throwable t) {
            // an exhausted heap: the first constructor links, or throws
        }
    }

    /** Links unless done; for a constructor, before its object has state. Throws what linking throws. */
    void ensure() {
        if (state != LINKED) {
            link();
        }
    }

    private synchronized void link() {
        if (state == UNLINKED) { // LINKING: this very thread, making a throwaway object of the linking
            state = LINKING;
            try {
                runEachCallSite();
                state = LINKED;
            } finally {
                if (state != LINKED) {
                    state = UNLINKED;
                }
            }
        }
    }
}
