package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Review 44: recursion through another key or another Once, and through a submit run inline, is still
 * recursion in the thread running the outer function. Contracts:
 * SingleFlight: "A call of run for a key made from inside that key's function, in the thread running it, would
 * wait for itself (Go deadlocks): it throws IllegalStateException."
 * Once: "Calling run on the same Once from inside its own action throws IllegalStateException";
 * Once.value: "Calling the returned supplier from inside supplier throws IllegalStateException".
 * Every wait is bounded (Threads.get): a deadlock fails the test instead of hanging.
 */
class NestedRecursionIsDetectedTest {

    @Test
    void aRunOfTheOuterKeyFromInsideAnInnerKeysFunctionThrows() {
        SingleFlight<String, String> sf = new SingleFlight<>();
        Threads.Task<Throwable> t = Threads.start(() -> {
            try {
                sf.run("A", () -> sf.run("B", () -> sf.run("A", () -> "inner").value()).value());
                return null;
            } catch (ExecutionException e) {
                Throwable c = e;
                while (c instanceof ExecutionException && c.getCause() != null) {
                    c = c.getCause();
                }
                return c;
            }
        });
        Throwable thrown = Threads.get(t);
        assertTrue(thrown instanceof IllegalStateException, "got " + thrown);
    }

    @Test
    void aRunFromInsideTheFunctionOfASubmitRunInlineThrows() {
        SingleFlight<String, String> sf = new SingleFlight<>();
        Threads.Task<Throwable> t = Threads.start(() -> {
            CompletableFuture<SingleFlight.Result<String>> f = sf.submit("A", () -> sf.run("A", () -> "x").value(),
                    Runnable::run);
            try {
                f.get();
                return null;
            } catch (ExecutionException e) {
                return e.getCause() instanceof ExecutionException ee ? ee.getCause() : e.getCause();
            }
        });
        Throwable thrown = Threads.get(t);
        assertTrue(thrown instanceof IllegalStateException, "got " + thrown);
        assertEquals(0, keysInFlight(sf));
    }

    @Test
    void aOnceRunFromInsideAnotherOncesActionNestedInItThrows() {
        Once outer = new Once();
        Once inner = new Once();
        Threads.Task<Throwable> t = Threads.start(() -> {
            try {
                outer.run(() -> inner.run(() -> outer.run(() -> { })));
                return null;
            } catch (Throwable e) {
                return e;
            }
        });
        Throwable thrown = Threads.get(t);
        assertTrue(thrown instanceof IllegalStateException, "got " + thrown);
        assertTrue(outer.isDone() && inner.isDone());
    }

    @Test
    void aOnceValueCalledFromANestedOnceValueThrows() {
        Supplier<Integer>[] holder = new Supplier[2];
        holder[0] = Once.value(() -> holder[1].get() + 1);
        holder[1] = Once.value(() -> holder[0].get() + 1);
        Threads.Task<Throwable> t = Threads.start(() -> {
            try {
                holder[0].get();
                return null;
            } catch (Throwable e) {
                return e;
            }
        });
        Throwable thrown = Threads.get(t);
        assertTrue(thrown instanceof IllegalStateException, "got " + thrown);
        assertThrows(IllegalStateException.class, holder[0]::get); // the same throwable, every call
    }

    private static int keysInFlight(SingleFlight<?, ?> sf) {
        String s = sf.toString();
        return Integer.parseInt(s.substring(s.indexOf("= ") + 2, s.indexOf(']')));
    }
}
