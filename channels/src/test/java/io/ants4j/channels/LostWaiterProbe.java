package io.ants4j.channels;

import java.lang.reflect.Constructor;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Channel operations that claim a waiter the JDK cannot unpark: a virtual thread whose scheduler rejects its
 * continuation once {@code reject} is set (JDK 25's stand-in for JDK 21's OutOfMemoryError escaping an unpark). Run in
 * a JVM of its own by {@link LostWaiterTest}, with {@code --add-opens java.base/java.lang} for the JDK's builder of
 * virtual threads with a scheduler. Prints {@code OK} last, or {@code FAIL: } and what went wrong.
 */
final class LostWaiterProbe {
    private LostWaiterProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result;
        try {
            result = switch (args[0]) {
                case "close" -> close();
                case "send" -> send();
                case "receive" -> receive();
                default -> "FAIL: unknown probe " + args[0];
            };
        } catch (Throwable t) {
            result = "FAIL: " + t;
        }
        System.out.println(result);
        System.out.flush();
        Runtime.getRuntime().halt(0); // the lost thread never ends
    }

    /** Close claims a lost receiver and a platform one: it returns normally and the platform one gets null. */
    private static String close() throws Exception {
        Chan<Integer> c = new Chan<>();
        Rejecting scheduler = new Rejecting();
        Thread lost = startVirtual(scheduler, () -> receive(c));
        untilBlocked(lost);
        AtomicReference<Object> got = new AtomicReference<>("unset");
        Thread other = Thread.ofPlatform().start(() -> got.set(receive(c)));
        untilBlocked(other);
        scheduler.reject = true;
        c.close();
        other.join(TimeUnit.SECONDS.toMillis(10));
        return other.isAlive() ? "FAIL: the other receiver was not woken" : got.get() == null ? "OK" : "FAIL: got " + got;
    }

    /** A send handing its value to a lost receiver returns normally. */
    private static String send() throws Exception {
        Chan<Integer> c = new Chan<>();
        Rejecting scheduler = new Rejecting();
        Thread lost = startVirtual(scheduler, () -> receive(c));
        untilBlocked(lost);
        scheduler.reject = true;
        c.send(1);
        return c.poll() == null ? "OK" : "FAIL: the value stayed";
    }

    /** A receive taking the value of a lost sender returns it. */
    private static String receive() throws Exception {
        Chan<Integer> c = new Chan<>();
        Rejecting scheduler = new Rejecting();
        Thread lost = startVirtual(scheduler, () -> {
            try {
                c.send(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        untilBlocked(lost);
        scheduler.reject = true;
        Integer v = c.receive();
        return Integer.valueOf(5).equals(v) ? "OK" : "FAIL: received " + v;
    }

    private static Integer receive(Chan<Integer> c) {
        try {
            return c.receive();
        } catch (InterruptedException e) {
            return -1;
        }
    }

    private static void untilBlocked(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.getState() != Thread.State.WAITING) {
            if (System.nanoTime() - deadline > 0L) {
                throw new AssertionError(t + " did not block");
            }
            Thread.onSpinWait();
        }
    }

    /** Runs each continuation on a new platform thread until told to reject it. */
    static final class Rejecting implements Executor {
        volatile boolean reject;

        @Override
        public void execute(Runnable continuation) {
            if (reject) {
                throw new RejectedExecutionException("injected: the virtual thread's scheduler rejects it");
            }
            Thread.ofPlatform().daemon().name("carrier").start(continuation);
        }
    }

    private static Thread startVirtual(Executor scheduler, Runnable body) throws Exception {
        Class<?> builder = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
        Constructor<?> withScheduler = builder.getDeclaredConstructor(Executor.class);
        withScheduler.setAccessible(true);
        return ((Thread.Builder.OfVirtual) withScheduler.newInstance(scheduler)).name("lost").start(body);
    }
}
