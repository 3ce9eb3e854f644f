package io.ants4j.systematic.lincheck;

import io.ants4j.primitives.Once;
import java.util.function.Supplier;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link Once}: {@code run} with an action that counts its calls, {@code run}
 * with one that counts and throws, {@code isDone()}, and {@link Once#value}'s supplier. Proves:
 * the first {@code run} runs its action, exactly once in all, and every {@code run} returns only
 * after that action has run (each returns the count it then sees: 1); if that action throws, the
 * throwable reaches its caller only, and the {@code Once} is done all the same; {@code isDone()}
 * turns true with the first run and stays; a {@code value} supplier calls its supplier once and
 * every call returns its value.
 */
public class OnceLincheckTest {
    private final Once once = new Once();
    /** Counts the calls of the actions given to {@link #once}. */
    private final Calls action = new Calls(false);
    /** Counts the calls of the same action, which then throws. */
    private final Calls failingAction = new Calls(true);
    private final Supplier<Integer> value = Once.value(new Calls(false));

    @Operation
    public int run() {
        once.run(action);
        return action.count + failingAction.count;
    }

    @Operation
    public int runFailing() {
        once.run(failingAction);
        return action.count + failingAction.count;
    }

    @Operation
    public boolean isDone() {
        return once.isDone();
    }

    @Operation
    public int value() {
        return value.get();
    }

    @Test
    void modelChecking() {
        LincheckBudget.modelChecking(10, 300).threads(3).actorsPerThread(2).actorsBefore(0)
                .sequentialSpecification(Spec.class).check(getClass());
    }

    /**
     * An action or supplier that counts its calls (a class, not a lambda: Lincheck cannot follow
     * the fields of a lambda's hidden class, and says so).
     */
    private static final class Calls implements Runnable, Supplier<Integer> {
        private final boolean fails;
        int count;

        Calls(boolean fails) {
            this.fails = fails;
        }

        @Override
        public void run() {
            get();
        }

        @Override
        public Integer get() {
            count++;
            if (fails) {
                throw new IllegalStateException("action failed");
            }
            return count;
        }
    }

    /** The sequential {@code Once}: done or not; the value computed by the first call. */
    public static final class Spec {
        private boolean done;

        public int run() {
            done = true;
            return 1;
        }

        public int runFailing() {
            if (done) {
                return 1;
            }
            done = true;
            throw new IllegalStateException("action failed");
        }

        public boolean isDone() {
            return done;
        }

        public int value() {
            return 1;
        }
    }
}
