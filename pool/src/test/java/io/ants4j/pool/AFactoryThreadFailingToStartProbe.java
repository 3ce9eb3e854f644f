package io.ants4j.pool;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run by {@link ACloseFromATaskIsNotTakenForAnOutsiderByAFactoryThreadFailingToStartTest#underADebugger} in a JVM of
 * its own, under a debugger that holds the thread named {@code probe-submitter} at {@code w.start()} in
 * {@code PoolCore.startWorker}: the preemption an operating system may make there, with plain JDK threads (no
 * overridden {@code start()}). A pool whose factory returns, after its first thread, that same (started) thread again;
 * task A runs on it. A submitter's new worker is listed live with A's thread and is held before its
 * {@code Thread.start()}. If the live set's iteration meets that worker before A's (identity hashes decide), A calls
 * {@code close()} or {@code releaseTimeout(5 s)} (args[0]); the probe then prints {@code OUTCOME go}, on which the
 * debugger lets the submitter go (its start throws, its submission is rejected), and then {@code RESULT <what A's call
 * did>}. Otherwise it prints {@code OUTCOME unarranged}.
 */
final class AFactoryThreadFailingToStartProbe {
    private AFactoryThreadFailingToStartProbe() {
    }

    public static void main(String[] args) throws Exception {
        String call = args[0];
        int heldLine = Integer.parseInt(args[1]);
        AtomicReference<Thread> first = new AtomicReference<>();
        ThreadFactory factory = r -> {
            Thread t = first.get();
            if (t != null) {
                return t;
            }
            t = Thread.ofPlatform().daemon(true).name("probe-a").unstarted(r);
            first.set(t);
            return t;
        };
        Pool pool = Pool.newPool(0, PoolOptions.builder().threadFactory(factory).disablePurge(true).build());
        CountDownLatch aRuns = new CountDownLatch(1);
        CountDownLatch goClose = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<String> result = new AtomicReference<>("none");
        pool.execute(() -> {
            aRuns.countDown();
            try {
                goClose.await(60, TimeUnit.SECONDS);
                if (call.equals("close")) {
                    pool.close();
                } else {
                    pool.releaseTimeout(Duration.ofSeconds(5));
                }
                result.set("returned");
            } catch (TimeoutException e) {
                result.set("TimeoutException " + e.getMessage());
            } catch (Throwable t) {
                result.set(t.toString());
            }
            done.countDown();
        });
        if (!aRuns.await(10, TimeUnit.SECONDS)) {
            System.out.println("PROBE FAILED task A never ran");
            return;
        }
        Thread a = first.get();
        Thread submitter = Thread.ofPlatform().daemon(true).name("probe-submitter").start(() -> {
            try {
                pool.execute(() -> { });
                System.out.println("SUBMITTER accepted");
            } catch (RejectedExecutionException e) {
                System.out.println("SUBMITTER rejected " + e.getCause());
            }
        });
        if (!until(() -> {
            StackTraceElement[] s = submitter.getStackTrace();
            return s.length > 0 && s[0].getMethodName().equals("startWorker") && s[0].getLineNumber() == heldLine;
        })) {
            System.out.println("PROBE FAILED the submitter was never held at PoolCore line " + heldLine);
            return;
        }
        Worker firstMatch = null;
        for (Worker w : live(pool)) {
            if (w.thread() == a) {
                firstMatch = w;
                break;
            }
        }
        if (firstMatch == null || firstMatch.runGoesOn()) {
            System.out.println("OUTCOME unarranged");
            return;
        }
        goClose.countDown();
        if (!until(() -> Arrays.stream(a.getStackTrace()).anyMatch(e -> e.getMethodName().equals("awaitTermination")
                || e.getMethodName().equals("awaitOnlyClosers")))) {
            System.out.println("PROBE FAILED A never waited in " + call);
            return;
        }
        System.out.println("A waits in " + (Arrays.stream(a.getStackTrace())
                .anyMatch(e -> e.getMethodName().equals("awaitTermination")) ? "awaitTermination" : "awaitOnlyClosers"));
        System.out.println("OUTCOME go"); // the debugger lets the submitter go: its Thread.start() throws
        submitter.join(10_000);
        done.await(10, TimeUnit.SECONDS);
        System.out.println("RESULT " + result.get() + " " + pool);
        System.exit(0);
    }

    private static boolean until(java.util.function.BooleanSupplier c) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (end - System.nanoTime() > 0L) {
            if (c.getAsBoolean()) {
                return true;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // a state the debugger holds
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private static Set<Worker> live(Pool pool) throws ReflectiveOperationException {
        Field f = PoolCore.class.getDeclaredField("live");
        f.setAccessible(true);
        return (Set<Worker>) f.get(pool.core);
    }
}
