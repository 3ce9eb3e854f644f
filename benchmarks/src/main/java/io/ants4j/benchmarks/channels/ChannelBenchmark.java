package io.ants4j.benchmarks.channels;

import com.softwaremill.jox.Channel;
import io.ants4j.channels.Chan;
import io.ants4j.channels.Select;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Channels side by side: ants4j's {@link Chan}, jox's {@link Channel} and the JDK's queues ({@link SynchronousQueue}
 * for a rendezvous, {@link ArrayBlockingQueue} buffered), in jox's own shapes: one producer and one consumer, 10,000
 * pairs on channels of their own, and a select of two receive cases fed by two producers. Time per value passed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
@State(Scope.Benchmark)
public class ChannelBenchmark {
    static final int VALUES = 200_000;
    static final int PAIRS = 10_000;

    @Param({"ants4j", "jox", "jdk"})
    public String impl;

    @Param({"0", "16"})
    public int capacity;

    @Param({"virtual", "platform"})
    public String threads;

    /** A channel as the benchmarks use it. */
    interface Pipe {
        void send(Integer value) throws InterruptedException;

        Integer receive() throws InterruptedException;
    }

    Pipe pipe() {
        switch (impl) {
            case "ants4j": {
                Chan<Integer> c = new Chan<>(capacity);
                return new Pipe() {
                    public void send(Integer value) throws InterruptedException {
                        c.send(value);
                    }

                    public Integer receive() throws InterruptedException {
                        return c.receive();
                    }
                };
            }
            case "jox": {
                Channel<Integer> c = capacity == 0 ? Channel.newRendezvousChannel() : Channel.newBufferedChannel(capacity);
                return new Pipe() {
                    public void send(Integer value) throws InterruptedException {
                        c.send(value);
                    }

                    public Integer receive() throws InterruptedException {
                        return c.receive();
                    }
                };
            }
            case "jdk": {
                BlockingQueue<Integer> q = capacity == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(capacity);
                return new Pipe() {
                    public void send(Integer value) throws InterruptedException {
                        q.put(value);
                    }

                    public Integer receive() throws InterruptedException {
                        return q.take();
                    }
                };
            }
            default:
                throw new IllegalArgumentException(impl);
        }
    }

    Thread start(Runnable r) {
        return "virtual".equals(threads) ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r);
    }

    interface Loop {
        void run() throws InterruptedException;
    }

    static Runnable unchecked(Loop loop) {
        return () -> {
            try {
                loop.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** One producer, one consumer: the time of a value from send to receive, hand-offs included. */
    @Benchmark
    @OperationsPerInvocation(VALUES)
    public void oneToOne() throws InterruptedException {
        Pipe p = pipe();
        Integer value = 63;
        Thread producer = start(unchecked(() -> {
            for (int i = 0; i < VALUES; i++) {
                p.send(value);
            }
        }));
        Thread consumer = start(unchecked(() -> {
            for (int i = 0; i < VALUES; i++) {
                p.receive();
            }
        }));
        producer.join();
        consumer.join();
    }

    /**
     * 10,000 producer-consumer pairs at once, each on a channel of its own (jox's "parallel", which runs on virtual
     * threads only): 20,000 threads, virtual or platform. On platform threads an invocation takes seconds: run it
     * with fewer iterations.
     */
    @Benchmark
    @OperationsPerInvocation(VALUES * 10)
    public void parallelPairs() throws InterruptedException {
        int each = VALUES * 10 / PAIRS;
        CountDownLatch done = new CountDownLatch(PAIRS);
        Integer value = 91;
        for (int t = 0; t < PAIRS; t++) {
            Pipe p = pipe();
            start(unchecked(() -> {
                for (int i = 0; i < each; i++) {
                    p.send(value);
                }
            }));
            start(unchecked(() -> {
                for (int i = 0; i < each; i++) {
                    p.receive();
                }
                done.countDown();
            }));
        }
        done.await();
    }

    /** Two channels, each fed by a producer of its own, and a select of a receive from either. */
    interface SelectOfTwo {
        void sendFirst(Integer value) throws InterruptedException;

        void sendSecond(Integer value) throws InterruptedException;

        void select() throws InterruptedException;
    }

    SelectOfTwo selectOfTwoChannels() {
        if ("ants4j".equals(impl)) {
            Chan<Integer> c1 = new Chan<>(capacity);
            Chan<Integer> c2 = new Chan<>(capacity);
            return new SelectOfTwo() {
                public void sendFirst(Integer value) throws InterruptedException {
                    c1.send(value);
                }

                public void sendSecond(Integer value) throws InterruptedException {
                    c2.send(value);
                }

                public void select() throws InterruptedException {
                    Select.select(c1.onReceive(v -> { }), c2.onReceive(v -> { }));
                }
            };
        }
        if ("jox".equals(impl)) {
            Channel<Integer> c1 = capacity == 0 ? Channel.newRendezvousChannel() : Channel.newBufferedChannel(capacity);
            Channel<Integer> c2 = capacity == 0 ? Channel.newRendezvousChannel() : Channel.newBufferedChannel(capacity);
            return new SelectOfTwo() {
                public void sendFirst(Integer value) throws InterruptedException {
                    c1.send(value);
                }

                public void sendSecond(Integer value) throws InterruptedException {
                    c2.send(value);
                }

                public void select() throws InterruptedException {
                    com.softwaremill.jox.Select.select(c1.receiveClause(), c2.receiveClause());
                }
            };
        }
        return null; // the JDK has no select
    }

    /** A select of two receive cases, each channel fed by a producer of its own: time per value selected. */
    @Benchmark
    @OperationsPerInvocation(VALUES)
    public void selectOfTwo() throws InterruptedException {
        SelectOfTwo s = selectOfTwoChannels();
        if (s == null) {
            return;
        }
        Integer value = 63;
        Thread p1 = start(unchecked(() -> {
            for (int i = 0; i < VALUES / 2; i++) {
                s.sendFirst(value);
            }
        }));
        Thread p2 = start(unchecked(() -> {
            for (int i = 0; i < VALUES / 2; i++) {
                s.sendSecond(value);
            }
        }));
        Thread selector = start(unchecked(() -> {
            for (int i = 0; i < VALUES; i++) {
                s.select();
            }
        }));
        p1.join();
        p2.join();
        selector.join();
    }
}
