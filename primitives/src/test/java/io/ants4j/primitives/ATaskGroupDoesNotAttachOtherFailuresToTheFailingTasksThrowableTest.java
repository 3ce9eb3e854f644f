package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Review 37. TaskGroup's class javadoc (TaskGroup.java:52-56): "What other tasks throw afterwards is attached to it
 * as suppressed (at most 16), except an {@link InterruptedException} ...; so is what interrupting the other tasks
 * throws ..., while the failing task's {@code Future} reports only what it threw." The group attaches those
 * later failures with {@code addSuppressed} to the very throwable the failing task threw, which is also what that
 * task's {@code Future} reports: the Future then reports the other tasks' failures too. And a throwable instance
 * that tasks share (a preallocated exception used for control flow) collects the later failures of every group it
 * fails, past 16 and without bound (a leak), as each group counts its own 16.
 */
@Timeout(60)
class ATaskGroupDoesNotAttachOtherFailuresToTheFailingTasksThrowableTest {

    /** Runs a group in which {@code first} fails first and another task then throws on its cancellation. */
    private static Future<Object> failWithALaterFailure(RuntimeException first, String later) throws Exception {
        TaskGroup<Object> group = TaskGroup.create();
        CountDownLatch waiting = new CountDownLatch(1);
        group.go(() -> {
            waiting.countDown();
            try {
                new CountDownLatch(1).await(); // until the group's cancellation interrupts it
            } catch (InterruptedException cancelled) {
                throw new IllegalStateException(later); // a later failure, not an InterruptedException
            }
            return null;
        });
        assertTrue(waiting.await(20, TimeUnit.SECONDS));
        Future<Object> failing = group.go(() -> {
            throw first;
        });
        ExecutionException awaited = assertThrows(ExecutionException.class, group::await);
        assertSame(first, awaited.getCause());
        return failing;
    }

    @Test
    void theFailingTasksFutureReportsOnlyWhatItThrew() throws Exception {
        RuntimeException first = new RuntimeException("the first failure");
        Future<Object> failing = failWithALaterFailure(first, "thrown by another task on the cancellation");
        ExecutionException reported = assertThrows(ExecutionException.class, failing::get);
        assertSame(first, reported.getCause());
        assertArrayEquals(new Throwable[0], reported.getCause().getSuppressed(),
                "the failing task's Future reports other tasks' failures as well: "
                        + Arrays.toString(reported.getCause().getSuppressed()));
    }

    @Test
    void aThrowableSharedByTasksOfManyGroupsCollectsNoMoreThan16() throws Exception {
        RuntimeException shared = new RuntimeException("stop"); // one instance, thrown by a task of each group
        for (int g = 0; g < 20; g++) {
            failWithALaterFailure(shared, "later failure of group " + g);
        }
        int collected = shared.getSuppressed().length;
        assertTrue(collected <= 16, "await's ExecutionException of the 20th group has a cause with " + collected
                + " suppressed throwables, of 20 groups (at most 16 promised; the list grows without bound)");
    }
}
