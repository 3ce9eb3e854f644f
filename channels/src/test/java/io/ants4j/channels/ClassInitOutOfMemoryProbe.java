package io.ants4j.channels;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Run in a JVM of its own with a small heap ({@link TimersWhoseInitializationRanOutOfMemoryCanBeUsedOnceMemoryIsBackTest}),
 * after the primitives' probe of the same name: each try loads the channels afresh in a class loader of its own,
 * initializes {@code Chan} with memory to spare, fills the heap but for a margin, initializes {@code Timers}, frees
 * the heap and calls {@code Chan.after(1 day)}; the margin grows by 1 KB a try until the initialization succeeds.
 * Prints {@code OK} if every initialization that left {@code Chan.after} unusable had a margin below 12 KB (the
 * primitives' bound for a class's own lookups), else the margins at which it was left unusable for good.
 */
final class ClassInitOutOfMemoryProbe {
    private static final int LOOKUP_MARGIN = 12 << 10;
    private static final int STEP = 1 << 10;
    private static final int MAX_MARGIN = 1 << 20;

    private static volatile byte[] reserve;
    private static volatile Object hog;

    private ClassInitOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String pkg = Chan.class.getPackageName();
        URL[] channels = {Chan.class.getProtectionDomain().getCodeSource().getLocation()};
        // the JDK's classes (executor, lambdas) are initialized here, with memory to spare, by a copy of its own
        after(new URLClassLoader(channels, ClassLoader.getPlatformClassLoader()));
        List<String> unusable = new ArrayList<>();
        for (int margin = 0; margin <= MAX_MARGIN; margin += STEP) {
            URLClassLoader loader = new URLClassLoader(channels, ClassLoader.getPlatformClassLoader());
            Method after = Class.forName(pkg + ".Chan", true, loader).getMethod("after", Duration.class);
            Duration day = Duration.ofDays(1);
            reserve = new byte[margin];
            fillHeap();
            reserve = null;
            Throwable initialization = null;
            try {
                Class.forName(pkg + ".Timers", true, loader);
            } catch (Throwable t) {
                initialization = t;
            }
            hog = null;
            if (initialization == null) {
                System.out.println(unusable.isEmpty() ? "OK" : "FAILED: Chan.after could not be used after Timers'"
                        + " initialization ran out of memory with a margin of " + unusable
                        + " (the first that succeeded had a margin of " + margin + " bytes)");
                System.exit(0);
            }
            try {
                after.invoke(null, day);
            } catch (Throwable use) {
                if (margin >= LOOKUP_MARGIN) {
                    Throwable cause = use.getCause() != null ? use.getCause() : use;
                    unusable.add(margin + " bytes: " + cause + (unusable.isEmpty() ? " (initialization threw "
                            + initialization + ")" : ""));
                }
            }
        }
        System.out.println("the initialization failed even with a margin of " + MAX_MARGIN + " bytes");
        System.exit(0);
    }

    private static void after(ClassLoader loader) throws Exception {
        Class.forName(Chan.class.getName(), true, loader).getMethod("after", Duration.class)
                .invoke(null, Duration.ofDays(1));
    }

    private static void fillHeap() {
        hog = HeapFill.fill(null);
    }
}
