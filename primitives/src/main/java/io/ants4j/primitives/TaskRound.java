package io.ants4j.primitives;

import java.util.ArrayList;
import java.util.List;

/**
 * The tasks of a {@link TaskGroup} let in since the previous {@code await} returned, in {@code go}
 * order, and a {@link WaitGroup} counting those not yet returned. Guarded by the group's lock, except
 * where a method says otherwise.
 */
final class TaskRound<T> {
    /*
     * Implementation notes.
     *
     * Once closed, a round's list never changes, so its results are read without the lock. A member
     * is never removed from the list: cancellation walks it without the lock (frozen, since no go
     * registers once the group is cancelled), and one that go took back is marked and left out of
     * the results.
     */

    final ArrayList<TaskMember<T>> members = new ArrayList<>();
    final WaitGroup pending = new WaitGroup();
    /** Once true, {@link #members} never changes. */
    boolean closed;

    /** Counts {@code member} in and adds it; if the list cannot grow (no memory), nothing changes. */
    void register(TaskMember<T> member) {
        pending.add(1);
        try {
            members.add(member); // may fail to allocate
        } catch (Throwable t) {
            pending.done();
            throw t;
        }
        member.round = this;
    }

    /**
     * Adds the results of this closed round to {@code into}, in {@code go} order; read without the
     * lock. Allocates nothing if {@code into} has room for a result per member.
     */
    void addResultsTo(List<T> into) {
        for (int i = 0, n = members.size(); i < n; i++) {
            TaskMember<T> m = members.get(i);
            if (!m.rejected) {
                into.add(m.future.isCancelled() ? null : m.future.resultNow());
            }
        }
    }

    /**
     * Cancels every member but {@code except}, with interruption; called without the lock, once the
     * group is cancelled. Every member is cancelled even if interrupting one throws ({@code Thread.interrupt()}
     * can: see {@link TaskGroup#cancel()}): returns the first throwable, the others suppressed in it
     * as far as there is memory, or null. Walks by index: an iterator would be an allocation, which
     * could fail with the group cancelled and its tasks still running.
     */
    Throwable cancelMembers(TaskMember<T> except) {
        Throwable thrown = null;
        for (int i = 0, n = members.size(); i < n; i++) {
            TaskMember<T> m = members.get(i);
            if (m != except) {
                m.cancelledByGroup = true;
                try {
                    m.future.cancel(true);
                } catch (RuntimeException | Error e) {
                    thrown = TaskGroup.firstOf(thrown, e);
                }
            }
        }
        return thrown;
    }
}
