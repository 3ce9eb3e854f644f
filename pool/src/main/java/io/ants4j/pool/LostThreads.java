package io.ants4j.pool;

import java.util.concurrent.locks.LockSupport;

/** How the pool wakes a thread other than the caller's: one it cannot wake does not keep it from the others. */
final class LostThreads {
    private LostThreads() {
    }

    /**
     * Unparks {@code thread}, throwing nothing: if the JDK cannot schedule it (a virtual thread whose scheduler
     * refuses its continuation; on JDK 21 unparking one allocates and can run out of memory), that thread keeps
     * whatever the pool granted it (a slot, an outcome, a stop), since it may still run (its scheduler may have
     * queued it before it threw), and the caller, which wakes it on the pool's behalf, goes on with the others
     * instead of leaving them unanswered.
     */
    static void unpark(Thread thread) {
        try {
            LockSupport.unpark(thread);
        } catch (Throwable lost) {
            // that thread never runs again; the others must not share its fate
        }
    }
}
