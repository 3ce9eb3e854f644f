package io.ants4j.primitives;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Run in a JVM of its own with a small heap ({@link ClassInitOutOfMemoryTest}): a primitive's class initialized on
 * an exhausted heap. Each try loads the primitives afresh in a class loader of its own, fills the heap but for a
 * margin, initializes the named class, frees the heap, and makes an object of the class (through its no-argument
 * constructor, else its static {@code create()}); the margin grows by 1 KB a try until the initialization succeeds.
 *
 * <p>The JVM refuses for good a class whose initialization threw ({@code NoClassDefFoundError}). Below some margin
 * nothing can be done about it: looking up the class's {@code VarHandle}s and loading the classes it names allocate,
 * as for every class (under 10 KB for these classes on JDK 25). What the initialization does besides (running its
 * call sites once, which allocates twice to four times that) must not make the class unusable. So the probe prints
 * {@code OK} if every initialization that left the class unusable had a margin below {@link #LOOKUP_MARGIN}, else the
 * margins at which it was left unusable for good. Further names (after commas) are of classes to initialize first,
 * with memory to spare, in the same loader: with every class a primitive uses ready, what its initialization runs
 * out of memory on is only what it adds.
 */
final class ClassInitOutOfMemoryProbe {
    /** Margins below this may leave no room for the lookups of the class's handles and the loading of its classes. */
    private static final int LOOKUP_MARGIN = 12 << 10;
    private static final int STEP = 1 << 10;
    private static final int MAX_MARGIN = 1 << 20;

    private static volatile byte[] reserve;

    private ClassInitOutOfMemoryProbe() {
    }

    public static void main(String[] argument) throws Exception {
        String[] args = argument[0].split(",");
        String name = Mutex.class.getPackageName() + "." + args[0];
        URL[] primitives = {Mutex.class.getProtectionDomain().getCodeSource().getLocation()};
        // the JDK's classes behind a VarHandle or a lambda are initialized here, with memory to spare, by a copy
        // of the class in a loader of its own (the JVM keeps their failure for good too)
        Class.forName(name, true, new URLClassLoader(primitives, ClassLoader.getPlatformClassLoader()));
        List<String> unusable = new ArrayList<>();
        int failures = 0;
        for (int margin = 0; margin <= MAX_MARGIN; margin += STEP) {
            URLClassLoader loader = new URLClassLoader(primitives, ClassLoader.getPlatformClassLoader());
            Callable<Object> make = maker(Class.forName(name, false, loader));
            for (int i = 1; i < args.length; i++) { // with memory to spare: what the class uses is ready
                Class.forName(Mutex.class.getPackageName() + "." + args[i], true, loader);
            }
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
                        + "initialization ran out of memory with a margin of " + unusable + " (" + failures
                        + " initializations failed; the first that succeeded had a margin of " + margin + " bytes)");
                System.exit(0);
            }
            failures++;
            try {
                make.call();
            } catch (Throwable use) {
                if (margin >= LOOKUP_MARGIN) {
                    unusable.add(margin + " bytes: " + use + (unusable.isEmpty() ? " (initialization threw "
                            + where(initialization) + ")" : ""));
                }
            }
        }
        System.out.println("the initialization failed even with a margin of " + MAX_MARGIN + " bytes");
        System.exit(0);
    }

    /** {@code t} and the frames of ants4j code it passed through. */
    private static String where(Throwable t) {
        StringBuilder b = new StringBuilder(t.toString());
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().startsWith("io.ants4j.")) {
                b.append(" at ").append(e);
            }
        }
        return b.toString();
    }

    /** Makes an object of {@code c}: its no-argument constructor, else its static {@code create()}. */
    private static Callable<Object> maker(Class<?> c) throws ReflectiveOperationException {
        try {
            Constructor<?> constructor = c.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor::newInstance;
        } catch (NoSuchMethodException e) {
            Method create = c.getDeclaredMethod("create");
            return () -> create.invoke(null);
        }
    }
}
