package io.ants4j.pool;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A probe's side of the holds it arms in {@code ThreadHoldingDebugger} (src/test/jdi): it asks on its standard output
 * and reads the debugger's answers on its standard input. A failed step prints {@code PROBE FAILED: ...}, which lets
 * every held thread go, and ends the probe's JVM.
 */
final class DebuggerHolds {
    private static final BlockingQueue<String> FROM_DEBUGGER = new LinkedBlockingQueue<>();

    private DebuggerHolds() {
    }

    /** Starts reading the debugger's answers; call first. */
    static void listen() {
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(System.in))) {
                for (String l; (l = r.readLine()) != null; ) {
                    FROM_DEBUGGER.add(l);
                }
            } catch (java.io.IOException e) {
                FROM_DEBUGGER.add("READ FAILED " + e);
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    /** Has the next thread named {@code prefix*} that reaches {@code line} held as {@code id}; returns once armed. */
    static void arm(String id, int line, String prefix) throws InterruptedException {
        System.out.println("ARM " + id + " " + line + " " + prefix);
        System.out.flush();
        expect("ARMED " + id);
    }

    /** Returns once the thread armed as {@code id} is held. */
    static void held(String id) throws InterruptedException {
        expect("HELD " + id);
    }

    /** Lets the thread held as {@code id} go. */
    static void release(String id) {
        System.out.println("RELEASE " + id);
        System.out.flush();
    }

    private static void expect(String line) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (;;) {
            String l = FROM_DEBUGGER.poll(100, TimeUnit.MILLISECONDS);
            if (line.equals(l)) {
                return;
            }
            if (l != null && !l.startsWith("ARMED") && !l.startsWith("HELD")) {
                check(false, "unexpected from the debugger: " + l);
            }
            if (l != null) {
                FROM_DEBUGGER.add(l); // another answer, for a later expect
            }
            check(deadline - System.nanoTime() > 0L, "never got " + line + " " + FROM_DEBUGGER);
        }
    }

    /** Ends the probe with {@code PROBE FAILED: what} unless {@code ok}. */
    static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("PROBE FAILED: " + what);
            System.out.flush();
            System.exit(2);
        }
    }
}
