package io.ants4j.pool;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Run by {@link ASubmitterLookingForTheHotWorkerDoesNotOvertakeAWaitingSubmitterTest} under
 * {@code ThreadHoldingDebugger} (src/test/jdi), which holds threads at lines of {@code SpinningWorkers} on request
 * (preemptions an operating system may make). A pool of capacity 1, platform threads: its worker w runs task b hot
 * (handed through the lane); submitter s1 calls execute(c) and, finding w busy, spins in {@code tryHand} for it to
 * come back (held there); b ends, w passes {@code nextFromLane}'s check (nobody waits) and is held before it stores
 * its spinning mark; submitter q calls execute(d) and waits ({@code waiting() == 1}); w stores its mark (held just
 * after); s1 resumes and takes w. Prints {@code OUTCOME s1 served while q waited} or {@code OUTCOME s1 not served
 * first}, then the order the tasks ran in.
 */
final class ALookingSubmitterOvertakesAWaiterProbe {
    private ALookingSubmitterOvertakesAWaiterProbe() {
    }

    public static void main(String[] args) throws Exception {
        int spinLoopRead = Integer.parseInt(args[0]);
        int hotStore = Integer.parseInt(args[1]);
        int justEntered = Integer.parseInt(args[2]);
        int submitterSpin = Integer.parseInt(args[3]);
        DebuggerHolds.listen();
        PoolOptions options = PoolOptions.builder().disablePurge(true)
                .threadFactory(Thread.ofPlatform().daemon(true).name("probe-worker-", 0).factory()).build();
        Pool pool = Pool.newPool(1, options);
        List<String> ran = new CopyOnWriteArrayList<>();

        DebuggerHolds.arm("0", spinLoopRead, "probe-worker-");
        pool.execute(() -> ran.add("a"));
        DebuggerHolds.held("0"); // w spins in the lane after a
        CountDownLatch bMayEnd = new CountDownLatch(1);
        pool.execute(() -> { // the fast lane: w is hot
            ran.add("b");
            try {
                bMayEnd.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        DebuggerHolds.arm("1", hotStore, "probe-worker-");
        DebuggerHolds.release("0");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ran.contains("b")) {
            DebuggerHolds.check(System.nanoTime() < deadline, "b never ran");
            Thread.onSpinWait();
        }
        DebuggerHolds.arm("2", submitterSpin, "probe-s1");
        CountDownLatch s1Returned = new CountDownLatch(1);
        Thread s1 = Thread.ofPlatform().daemon(true).name("probe-s1").start(() -> {
            pool.execute(() -> ran.add("c"));
            s1Returned.countDown();
        });
        DebuggerHolds.held("2"); // s1 looks for the hot worker w in tryHand
        bMayEnd.countDown();
        DebuggerHolds.held("1"); // w ended b, passed nextFromLane's check, has not stored its mark
        CountDownLatch qReturned = new CountDownLatch(1);
        Thread q = Thread.ofPlatform().daemon(true).name("probe-q").start(() -> {
            pool.execute(() -> ran.add("d"));
            qReturned.countDown();
        });
        while (pool.waiting() != 1) {
            DebuggerHolds.check(System.nanoTime() < deadline, "q never waited: " + pool);
            Thread.onSpinWait();
        }
        DebuggerHolds.arm("3", justEntered, "probe-worker-");
        DebuggerHolds.release("1");
        DebuggerHolds.held("3"); // w's spinning mark is in the slot
        int waitingBefore = pool.waiting();
        DebuggerHolds.release("2");
        // Negative wait: s1 must not return while q waits. With the defect s1's very next read of the slot sees w's
        // mark and its CAS takes w, so it returns within microseconds of its resume (plus the debugger's resume);
        // correct, s1 waits behind q and w stays held ("3") until OUTCOME, so this always waits it out: 1 s is ample.
        boolean s1Served = s1Returned.await(1, TimeUnit.SECONDS);
        int waitingWhenS1Returned = pool.waiting();
        boolean qServedBefore = qReturned.getCount() == 0;
        System.out.println("STATE waiting before s1 resumed=" + waitingBefore + ", s1 returned=" + s1Served
                + ", waiting when s1 returned=" + waitingWhenS1Returned + ", q returned before=" + qServedBefore);
        System.out.println("OUTCOME " + (s1Served && !qServedBefore && waitingWhenS1Returned == 1
                ? "s1 served while q waited" : "s1 not served first"));
        System.out.flush();
        DebuggerHolds.check(qReturned.await(30, TimeUnit.SECONDS), "q never returned");
        pool.release();
        System.out.println("TERMINATED " + pool.awaitTermination(30, TimeUnit.SECONDS));
        System.out.println("RAN " + ran);
        System.out.flush();
        s1.join(1000);
        q.join(1000);
    }
}
