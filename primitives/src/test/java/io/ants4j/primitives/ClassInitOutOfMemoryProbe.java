package io.ants4j.primitives;

import java.lang.reflect.Constructor;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * Run in a JVM of its own with a small heap ({@link ClassInitOutOfMemoryTest}): a primitive's class initialized
 * on an exhausted heap. Each try loads the primitives afresh in a class loader of its own, fills the heap but for
 * a margin, initializes the named class, frees the heap, and makes an object of the class; the margin grows by
 * 1 KB a try until the initialization succeeds.
 *
 * <p>The JVM refuses for good a class whose initialization threw ({@code NoClassDefFoundError}). Below some margin
 * nothing can be done about it: looking up the class's {@code VarHandle}s and loading the classes it names
 * allocate, as for every class (under 10 KB for these classes on JDK 25). What the initialization does besides,
 * running its call sites once, allocates twice to four times that, and must not make the class unusable. So the
 * probe prints {@code OK} if every initialization that left the class unusable had a margin below
 * {@link #LOOKUP_MARGIN}.
 */
final class ClassInitOutOfMemoryProbe {
    /** Margins below this may leave no room for the lookups of the class's handles and the loading of its classes. */
    private static final int LOOKUP_MARGIN = 12 << 10;
    private static final int STEP = 1 << 10;
    private static final int MAX_MARGIN = 1 << 20;

    /** What is left free while the heap is full. */
    private static volatile byte[] reserve;

    private ClassInitOutOfMemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        String name = Mutex.class.getPackageName() + "." + args[0];
        URL[] primitives = {Mutex.class.getProtectionDomain().getCodeSource().getLocation()};
        // the JDK's classes behind a VarHandle are initialized on first use, and the JVM keeps their failure for
        // good too: they are initialized here, with memory to spare, by a copy of the class in a loader of its own
        Class.forName(name, true, new URLClassLoader(primitives, ClassLoader.getPlatformClassLoader()));
        List<String> unusable = new ArrayList<>();
        for (int margin = 0; margin <= MAX_MARGIN; margin += STEP) {
            URLClassLoader loader = new URLClassLoader(primitives, ClassLoader.getPlatformClassLoader());
            Constructor<?> constructor = Class.forName(name, false, loader).getDeclaredConstructor();
            constructor.setAccessible(true);
            reserve = new byte[margin];
            OutOfMemoryProbe.fillHeap();
            reserve = null;
            Throwable initialization = null;
            try {
                Class.forName(name, true, loader);
            } catch (Throwable t) {
                initialization = t;
            }
            OutOfMemoryProbe.releaseHeap();
            if (initialization == null) {
                System.out.println(unusable.isEmpty() ? "OK" : "FAILED: " + args[0] + " could not be used after its "
                        + "initialization ran out of memory with a margin of " + unusable);
                System.exit(0);
            }
            try {
                constructor.newInstance();
            } catch (Throwable use) {
                if (margin >= LOOKUP_MARGIN) {
                    unusable.add(margin + " bytes: " + use);
                }
            }
        }
        System.out.println("the initialization failed even with a margin of " + MAX_MARGIN + " bytes");
        System.exit(0);
    }
}
