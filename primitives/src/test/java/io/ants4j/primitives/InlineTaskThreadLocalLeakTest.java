package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * TaskGroup's javadoc names executors that run a task inline on the submitting thread ("a saturated
 * {@code ThreadPoolExecutor} with {@code CallerRunsPolicy}, {@code Runnable::run}"). A task so run leaves a
 * {@code TaskMember$Calling} in that thread's {@code ThreadLocal} map for the rest of the thread's life, although no
 * task of any group runs there any more: an object of the library, which pins the library's class loader (the
 * classic ThreadLocal leak of a web application on a container's long-lived request thread). Review 10 established
 * the principle for TaskGroup's class initialization ({@link ClassInitThreadLocalLeakTest}); the same record is left
 * by every thread that ever ran a task, an executor's pooled thread or the caller's own.
 */
class InlineTaskThreadLocalLeakTest {

    /** In a fresh loader of the library: a group that runs its task inline on this thread; go, then await. */
    @SuppressWarnings("unchecked")
    private static WeakReference<ClassLoader> runOneTaskInlineInFreshLoader(ReferenceQueue<ClassLoader> q)
            throws Exception {
        URL classes = TaskGroup.class.getProtectionDomain().getCodeSource().getLocation();
        URLClassLoader loader = new URLClassLoader(new URL[] {classes}, null);
        Class<?> c = Class.forName(TaskGroup.class.getName(), true, loader);
        assertTrue(c.getClassLoader() == loader, () -> "TaskGroup not loaded afresh but by " + c.getClassLoader());
        Executor inline = Runnable::run;
        Object group = c.getMethod("create", int.class, Executor.class).invoke(null, -1, inline);
        Callable<String> task = () -> "done";
        c.getMethod("go", Callable.class).invoke(group, task);
        List<String> results = (List<String>) c.getMethod("await").invoke(group);
        assertTrue(results.equals(List.of("done")), () -> "results: " + results);
        return new WeakReference<>(loader, q);
    }

    /** Runs the task on a platform thread that stays alive ({@code keepAlive}) or ends, then checks the loader. */
    private static boolean collectable(boolean keepAlive) throws Exception {
        ReferenceQueue<ClassLoader> q = new ReferenceQueue<>();
        AtomicReference<WeakReference<ClassLoader>> ref = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                ref.set(runOneTaskInlineInFreshLoader(q));
            } catch (Throwable e) {
                failure.set(e);
            } finally {
                ran.countDown();
            }
            if (keepAlive) {
                try {
                    end.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    // end
                }
            }
        });
        try {
            assertTrue(ran.await(10, TimeUnit.SECONDS), "the task still running");
            assertTrue(failure.get() == null, () -> "the run failed: " + failure.get());
            if (!keepAlive) {
                t.join(10_000);
                assertFalse(t.isAlive(), "the thread did not end");
            }
            return ClassInitThreadLocalLeakTest.collected(ref.get(), q);
        } finally {
            end.countDown();
            t.join(10_000);
        }
    }

    @Test
    void aThreadThatRanATaskInlineKeepsNothingOfTheLibraryOnceTheTaskReturned() throws Exception {
        assertTrue(collectable(false), "control: the loader is collectable once the thread that ran the task ended");
        assertTrue(collectable(true),
                "a thread that ran a TaskGroup task inline (Runnable::run executor) keeps an object of the library"
                        + " (TaskMember$Calling, a ThreadLocal value) after the task returned and the round was"
                        + " awaited, which keeps the library's class loader alive as long as that thread lives");
    }
}
