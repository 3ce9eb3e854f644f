package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Review 10: {@code TaskGroup}'s class initialization ("first-run linking") runs a throwaway group's tasks inline
 * on whichever thread first touches the class, so that thread's {@code ThreadLocal} map keeps a
 * {@code TaskMember$Calling} for the rest of its life. A {@code TaskGroup.create()} user runs no task on its own
 * thread ("each task runs in a virtual thread of its own"), yet the thread now holds an object of the library,
 * which pins the library's class loader: a web application redeployed on a container's long-lived request
 * thread can no longer be unloaded (the classic ThreadLocal leak). The other primitives' initialization leaves
 * nothing behind, which this test checks as the control.
 */
class ClassInitThreadLocalLeakTest {

    private static final long GC_WAIT_MILLIS = 200;
    private static final int GC_ROUNDS = 25;

    /** Loads the library's classes afresh (parent: the bootstrap loader) and initializes {@code simpleName}. */
    private static WeakReference<ClassLoader> initializeInFreshLoader(String simpleName, ReferenceQueue<ClassLoader> q)
            throws Exception {
        URL classes = TaskGroup.class.getProtectionDomain().getCodeSource().getLocation();
        // parent: the bootstrap loader only; the platform loader would delegate to the module of the test run
        URLClassLoader loader = new URLClassLoader(new URL[] {classes}, null);
        Class<?> c = Class.forName(TaskGroup.class.getPackageName() + '.' + simpleName, true, loader);
        assertTrue(c.getClassLoader() == loader, () -> simpleName + " not loaded afresh but by " + c.getClassLoader());
        return new WeakReference<>(loader, q);
    }

    /** Whether the loader is collected within {@code GC_ROUNDS} collections, each followed by a bounded wait. */
    static boolean collected(WeakReference<ClassLoader> ref, ReferenceQueue<ClassLoader> q)
            throws InterruptedException {
        for (int i = 0; i < GC_ROUNDS && !ref.refersTo(null); i++) {
            System.gc();
            Reference<?> r = q.remove(GC_WAIT_MILLIS);
            if (r == ref) {
                return true;
            }
        }
        return ref.refersTo(null);
    }

    /** Initializes {@code simpleName} on a thread that stays alive (parked on a latch) while the loader is checked. */
    private static boolean collectableAfterInitOnALiveThread(String simpleName) throws Exception {
        ReferenceQueue<ClassLoader> q = new ReferenceQueue<>();
        AtomicReference<WeakReference<ClassLoader>> ref = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch initialized = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                ref.set(initializeInFreshLoader(simpleName, q));
            } catch (Throwable e) {
                failure.set(e);
            } finally {
                initialized.countDown();
            }
            try {
                end.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                // end
            }
        });
        try {
            assertTrue(initialized.await(10, TimeUnit.SECONDS), "initialization still running");
            assertTrue(failure.get() == null, () -> "initialization failed: " + failure.get());
            return collected(ref.get(), q);
        } finally {
            end.countDown();
            t.join(10_000);
        }
    }

    private static boolean collectableAfterInitOnAThreadThatEnded(String simpleName) throws Exception {
        ReferenceQueue<ClassLoader> q = new ReferenceQueue<>();
        AtomicReference<WeakReference<ClassLoader>> ref = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                ref.set(initializeInFreshLoader(simpleName, q));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.join(10_000);
        assertFalse(t.isAlive(), "initialization still running");
        assertTrue(failure.get() == null, () -> "initialization failed: " + failure.get());
        return collected(ref.get(), q);
    }

    @Test
    void controlOtherPrimitivesLeaveNothingOnTheInitializingThread() throws Exception {
        for (String name : new String[] {"SpinLock", "WaitQueue", "WaitGroup", "Once", "RWMutex"}) {
            assertTrue(collectableAfterInitOnALiveThread(name), name + ": loader pinned by the initializing thread");
        }
    }

    @Test
    void initializingTaskGroupLeavesNothingOfTheLibraryOnTheInitializingThread() throws Exception {
        assertTrue(collectableAfterInitOnAThreadThatEnded("TaskGroup"),
                "control: the loader is collectable once the initializing thread has ended");
        assertTrue(collectableAfterInitOnALiveThread("TaskGroup"),
                "TaskGroup's class initialization left an object of the library (TaskMember$Calling, a ThreadLocal"
                        + " value) on the initializing thread, which keeps the library's class loader alive as long"
                        + " as that thread lives");
    }
}
