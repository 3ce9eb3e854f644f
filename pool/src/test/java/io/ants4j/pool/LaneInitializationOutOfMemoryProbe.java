package io.ants4j.pool;

import io.ants4j.primitives.SpinLock;
import java.lang.reflect.Constructor;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.NanoClock;

/**
 * Run in a JVM of its own with a small heap ({@link LaneInitializationOutOfMemoryTest}): the fast lane's class
 * initialized on an exhausted heap. Each try loads the pool afresh in a class loader of its own, fills the heap but
 * for a margin, initializes {@link SpinningWorkers}, frees the heap, and makes a lane; the margin grows by 1 KB a
 * try until the initialization succeeds. The JVM refuses for good a class whose initialization threw: below some
 * margin nothing can be done about it (looking up the class's {@code VarHandle} and loading the classes it names
 * allocate, as for every class); above it, the linking of the lane's call sites (which allocates several times as
 * much) must not make the class unusable. Prints {@code OK} if every initialization that left the class unusable
 * had a margin below {@link #LOOKUP_MARGIN}, and the lanes made afterwards hold no token of the JVM's budget.
 */
final class LaneInitializationOutOfMemoryProbe {
    /** Margins below this may leave no room for the lookup of the handle and the loading of the classes. */
    private static final int LOOKUP_MARGIN = 12 << 10;
    private static final int STEP = 1 << 10;
    private static final int MAX_MARGIN = 1 << 20;

    private LaneInitializationOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        URL[] pool = {location(PoolCore.class), location(SpinLock.class), location(NanoClock.class)};
        String name = SpinningWorkers.class.getName();
        // the JDK's classes behind a VarHandle are initialized on first use, and the JVM keeps their failure for
        // good too: they are initialized here, with memory to spare, by a copy of the class in a loader of its own
        Class.forName(name, true, new URLClassLoader(pool, ClassLoader.getPlatformClassLoader()));
        List<String> unusable = new ArrayList<>();
        for (int margin = 0; margin <= MAX_MARGIN; margin += STEP) {
            URLClassLoader loader = new URLClassLoader(pool, ClassLoader.getPlatformClassLoader());
            Class<?> lanes = Class.forName(name, false, loader);
            Constructor<?> constructor = lanes.getDeclaredConstructor();
            constructor.setAccessible(true);
            Throwable initialization = LifecycleOutOfMemoryProbe.withFullHeapBut(margin,
                    () -> initialize(name, loader));
            if (initialization == null) {
                System.out.println(unusable.isEmpty() ? "OK" : "FAILED: the fast lane could not be used after its "
                        + "initialization ran out of memory with a margin of " + unusable);
                System.exit(0);
            }
            try {
                constructor.newInstance();
                var inLanes = lanes.getDeclaredMethod("inLanes");
                inLanes.setAccessible(true);
                int tokens = (int) inLanes.invoke(null);
                if (tokens != 0) {
                    unusable.add(margin + " bytes: " + tokens + " token(s) of the lane budget taken for good");
                }
            } catch (Throwable use) {
                if (margin >= LOOKUP_MARGIN) {
                    unusable.add(margin + " bytes: " + use);
                }
            }
        }
        System.out.println("the initialization failed even with a margin of " + MAX_MARGIN + " bytes");
        System.exit(0);
    }

    private static void initialize(String name, ClassLoader loader) {
        try {
            Class.forName(name, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private static URL location(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }
}
