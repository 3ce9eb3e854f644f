package io.ants4j.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** The four pools and the two kinds of worker thread, for the tests that run on each combination. */
final class PoolKinds {
    private PoolKinds() {
    }

    /** The four pools behind one submit method. */
    enum Kind {
        POOL, POOL_WITH_FUNC, MULTI_POOL, MULTI_POOL_WITH_FUNC;

        /**
         * A pool of this kind with {@code capacity} workers in all, whose tasks are {@code Runnable}s; a
         * multi-pool has two sub-pools of {@code capacity / 2}.
         */
        Tested make(int capacity, PoolOptions options) {
            return switch (this) {
                case POOL -> {
                    Pool p = Pool.newPool(capacity, options);
                    yield new Tested(p, p::execute, p::tryExecute);
                }
                case POOL_WITH_FUNC -> {
                    PoolWithFunc<Runnable> p = PoolWithFunc.newPool(capacity, Runnable::run, options);
                    yield new Tested(p, p::invoke, p::tryInvoke);
                }
                case MULTI_POOL -> {
                    MultiPool p = MultiPool.newMultiPool(2, capacity / 2, LoadBalancing.ROUND_ROBIN, options);
                    yield new Tested(p, p::execute, p::tryExecute);
                }
                case MULTI_POOL_WITH_FUNC -> {
                    MultiPoolWithFunc<Runnable> p = MultiPoolWithFunc.newMultiPool(2, capacity / 2, Runnable::run,
                            LoadBalancing.ROUND_ROBIN, options);
                    yield new Tested(p, p::invoke, p::tryInvoke);
                }
            };
        }

        boolean multi() {
            return this == MULTI_POOL || this == MULTI_POOL_WITH_FUNC;
        }
    }

    /** A pool and how to submit to it: {@code execute} or {@code invoke}, and their timed forms. */
    record Tested(WorkerPool pool, Consumer<Runnable> submit, BiPredicate<Runnable, Duration> trySubmit) {
    }

    /** Virtual or platform workers. */
    enum Threads {
        VIRTUAL, PLATFORM;

        /** A factory of this kind whose threads hand what they throw to {@code ueh}. */
        ThreadFactory factory(Thread.UncaughtExceptionHandler ueh) {
            return this == VIRTUAL
                    ? Thread.ofVirtual().uncaughtExceptionHandler(ueh).factory()
                    : Thread.ofPlatform().daemon(true).uncaughtExceptionHandler(ueh).factory();
        }
    }

    static Stream<Arguments> kindsAndThreads() {
        List<Arguments> args = new ArrayList<>();
        for (Kind k : Kind.values()) {
            for (Threads t : Threads.values()) {
                args.add(Arguments.of(k, t));
            }
        }
        return args.stream();
    }
}
