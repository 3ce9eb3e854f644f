package io.ants4j.systematic.lincheck;

import io.ants4j.channels.Chan;
import io.ants4j.channels.ChanClosedException;
import java.util.ArrayDeque;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Chan}'s operations that never wait, on a channel of capacity 2: {@code offer},
 * {@code poll}, {@code close}, {@code len} and {@code isClosed}. Proves: the channel is a bounded FIFO queue whose
 * offer succeeds if and only if there was room at one instant of the call; a poll takes the oldest value, or finds
 * none; after a close every offer throws {@link ChanClosedException}, polls drain what was buffered, and a second
 * close throws; {@code len} is a count that existed. (With no thread waiting, the hand-offs never apply; the waiting
 * operations are Fray's.)
 */
public class ChanLincheckTest {
    static final int CAP = 2;

    private final Chan<Integer> chan = new Chan<>(CAP);

    @Operation
    public boolean offer(@Param(gen = IntGen.class, conf = "1:3") int v) {
        return chan.offer(v);
    }

    @Operation
    public Integer poll() {
        return chan.poll();
    }

    @Operation
    public void close() {
        chan.close();
    }

    @Operation
    public int len() {
        return chan.len();
    }

    @Operation
    public boolean isClosed() {
        return chan.isClosed();
    }

    @Test
    void modelChecking() {
        LincheckBudget.modelChecking(10, 300).threads(3).actorsPerThread(3)
                .sequentialSpecification(Spec.class).check(getClass());
    }

    /** The sequential channel: a bounded FIFO queue and a closed flag. */
    public static final class Spec {
        private final ArrayDeque<Integer> buffer = new ArrayDeque<>();
        private boolean closed;

        public boolean offer(int v) {
            if (closed) {
                throw new ChanClosedException("send on closed channel");
            }
            if (buffer.size() == CAP) {
                return false;
            }
            buffer.add(v);
            return true;
        }

        public Integer poll() {
            return buffer.poll();
        }

        public void close() {
            if (closed) {
                throw new ChanClosedException("close of closed channel");
            }
            closed = true;
        }

        public int len() {
            return buffer.size();
        }

        public boolean isClosed() {
            return closed;
        }
    }
}
