package io.ants4j.primitives;

import java.util.concurrent.Callable;

/**
 * The ending every probe run in a JVM of its own shares: prints what the probe returned ({@code OK}, or
 * {@code FAIL: } and what went wrong), or that it threw, as the last line, then halts the JVM, since threads the
 * probe left parked or spinning for ever must not keep it alive.
 */
final class ProbeReport {
    private ProbeReport() {
    }

    static void printAndHalt(Callable<String> probe) {
        String result;
        try {
            result = probe.call();
        } catch (Throwable t) {
            result = "FAIL: the probe threw " + t;
        }
        System.out.println(result);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
