package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Collapses concurrent calls for one key into one call: the port of Go's
 * {@code golang.org/x/sync/singleflight.Group}.
 *
 * <pre>{@code
 * private final SingleFlight<String, User> loads = new SingleFlight<>();
 *
 * User user(String id) throws ExecutionException, InterruptedException {
 *     User cached = cache.get(id);
 *     if (cached != null) {
 *         return cached;
 *     }
 *     return loads.run(id, () -> {          // a thousand misses of one id make one database call
 *         User again = cache.get(id);        // a load that ended since our miss has filled it
 *         if (again != null) {
 *             return again;
 *         }
 *         User loaded = database.load(id);
 *         cache.put(id, loaded);
 *         return loaded;
 *     }).value();
 * }
 * }</pre>
 *
 * <p><b>Calls.</b> {@link #run} (Go's {@code Do}) and {@link #submit} (Go's {@code DoChan}) start a
 * call for their key unless one is in flight for an equal key ({@code equals} and {@code hashCode});
 * then they <i>join</i> it: their own function is not called, and they are given the outcome of the
 * call in flight. A call is in flight from the moment its caller registers the key (before
 * {@code run} calls the function, before {@code submit} returns) until its function has returned or
 * thrown. Then the key is removed, <em>before</em> any caller is given the outcome: a call made after a
 * caller has its outcome is a new call, and a {@code SingleFlight} keeps nothing, neither values nor
 * failures. {@link #forget} removes a key early: later calls for it start a new call, while the one in flight
 * goes on for those who joined it. The key's {@code hashCode}, and its {@code equals} with the keys in flight,
 * run in the calling thread of {@code run}, {@code submit} and {@code forget}; what they throw, the method
 * throws, with nothing changed. Removing a completed call's key calls no method of the key.
 *
 * <p><b>Outcomes.</b> Every caller of a call is given the same outcome: a {@link Result} holding the
 * function's value ({@code null} is a value) and whether it was shared: whether, when the call
 * completed, more than one of its callers was waiting for it (the one that ran the function in
 * {@code run} always is; a caller that stopped waiting before, interrupted or its future cancelled or
 * completed, is not); or, if the function threw, an {@link ExecutionException} whose cause is what it threw, an
 * {@code Error} too, in every caller, the one that ran the function included (Go re-panics in every
 * caller).
 *
 * <p><b>Interrupts.</b> A caller waiting for a call that another caller started stops waiting when
 * interrupted and throws {@link InterruptedException}; the call and its other callers go on
 * undisturbed. If the outcome reached it before the interrupt took effect, it returns the outcome with its interrupt status set. The caller
 * that runs the function waits for nothing: its interrupt is the function's to handle, as in any
 * method; if the function throws {@link InterruptedException}, {@code run} sets the caller's interrupt
 * status again and throws the {@code ExecutionException}, so the interrupt is not lost. Cancelling a
 * future of {@code submit} stops that caller's wait only, as an interrupt does. A caller that stopped
 * waiting leaves a small record with the call until the call completes: a call that runs long under
 * many interrupted or cancelled callers holds one for each.
 *
 * <p><b>Misuse.</b> A call of {@code run} for a key made from inside that key's function, in the thread
 * running it, would wait for itself (Go deadlocks): it throws {@link IllegalStateException}. A
 * {@code submit} for the key from there, or a call made in another thread that the function waits
 * for, is not detected: the function would wait for its own outcome. A key's {@code equals} runs while
 * this {@code SingleFlight} holds a lock that other keys' calls share (as {@code ConcurrentHashMap} runs it
 * under a bin's lock): it may call {@link #toString}, but it must not call {@code run}, {@code submit} or
 * {@code forget} of this {@code SingleFlight}, nor run or wait for anything that does (a task of its calls,
 * another thread's call): that may wait for ever. Where such a call would wait for the lock its own thread
 * holds, it throws {@link IllegalStateException} instead.
 *
 * <p><b>Memory consistency effects:</b> actions of a call's function <i>happen-before</i> each caller
 * of the call is given the outcome: the return (or throw) of its {@code run}, the completion of the
 * future its {@code submit} returned. Actions in a thread before a {@code run} or {@code submit} that
 * starts a call <i>happen-before</i> the function runs.
 *
 * @param <K> the type of the keys
 * @param <V> the type of the values the functions return
 */
public final class SingleFlight<K, V> {
    /*
     * Implementation notes.
     *
     * The calls in flight are a CallTable, a hash table whose entries are the FlightCalls themselves (a FlightCall
     * holds its key, the key's hash and the link of its bin): an uncontended call allocates its FlightCall and nothing
     * else, and takes the lock of its key's stripe twice, to register and to unregister, where a map of futures inserts
     * a node and removes it, each with its own atomic steps and a count of the map's size.
     *
     * Under the stripe's lock a caller looks for a call of an equal key. None: it links its own (registers). One: it
     * joins it there, pushing its JoinedCaller onto the call's stack of joined callers, if it came with a JoinedCaller;
     * otherwise it unlocks, makes its JoinedCaller and looks again (the call may have completed meanwhile: it then
     * joins or registers whatever it finds). The completion locks the stripe, unlinks its call (unless forget did),
     * takes the stack and unlocks. Joins and the completion's removal hold the same lock, so every join either comes
     * before the removal, is on the stack the completion takes and happens-before it, or comes after it and does not
     * find the call: the stack is a plain field, read and written under the lock only. A forgotten call was unlinked
     * under the lock as well: no join follows it, and its completion takes the stack the same way. The recursion check
     * of run is made on the call found: one run by this very thread is its own caller's.
     *
     * So every caller that joins a call is on the stack its completion takes, and no caller can join a completed call;
     * the key is unregistered before the hand-over. The outcome is written by the hand-over into each waiting thread's
     * node before it sets the node GIVEN, and read by that thread after it sees GIVEN, so plain fields are enough;
     * futures are completed with it. A FlightCall holds no outcome: a call of run that nobody joined has no hand-over,
     * and its caller takes its outcome from what the function returned or threw.
     *
     * Order of a completion: unregister (unlink the call itself: a forget() and a newer call for the key are left
     * alone) and take the stack, then hand over in three steps. First count the callers still waiting: a waiting
     * thread's node (a JoinedCaller) is CLAIMED by a CAS from WAITING, which the thread itself races when it leaves on
     * an interrupt (WAITING to LEFT), so it either leaves and does not count, or counts and can no longer leave; a
     * future counts if it is not done (one cancelled at that very moment is counted all the same); the owner, the
     * caller of run, always. From the count, "shared" and the one Result record every caller is given. Then write the
     * outcome into each claimed node, set it GIVEN and unpark its thread (a thread woken early sees CLAIMED and parks
     * again), then complete the futures, last because their dependent actions may run in the completing thread.
     *
     * A submitted call's stage says who started it: its task (PENDING to STARTED) before it calls the function, or
     * submit, when the executor threw (PENDING to REFUSED), which fails the call. An executor may throw after it ran or
     * kept the task (ThreadPoolExecutor throws with the task queued when it cannot add a worker): then whichever came
     * first decides, and a task run after the refusal does nothing; a submit whose executor threw after the task
     * started the call marks it ABANDONED (a CAS, no allocation), and a hand-over after that does not count its future
     * as waiting.
     *
     * Failures. Every allocation of a caller comes before the state it changes: the FlightCall, the JoinedCaller, the
     * submit task, and a stripe of the table at its first use, before the key is registered or the stack pushed; the
     * InterruptedException of a leaving waiter after it has left (an OutOfMemoryError then leaves it gone with its
     * interrupt status set). The key's hashCode runs before anything (the FlightCall keeps the hash), its equals under
     * the lock before anything changed: a throw leaves nothing behind. Registering allocates only the stripe's bins, at
     * its first link (a failure throws, nothing changed), and to grow them (a failure is passed over: the chains grow
     * longer). A key's equals runs under its stripe's lock, as ConcurrentHashMap runs it under a bin's: one that blocks
     * holds up the calls of that stripe. The completion allocates nothing before the hand-over and calls no method of
     * the key: its removal compares identities. The completion throws nothing: whatever fails on the way to one caller
     * (an unpark of a virtual thread the JDK cannot schedule, a future's completion on an exhausted heap) concerns that
     * caller, and the caller that ran the function is given its outcome as every other is (as Once does). The hand-over
     * allocates one Result; if that fails, a woken thread makes its own (or its ExecutionException), and the futures
     * are failed with the error. A call of run that nobody joined makes no shared Result: its caller makes its own on
     * return, which the JIT can keep out of the heap when the caller only reads the value (the uncontended path then
     * allocates the FlightCall alone). Waking a platform thread allocates nothing; completing a future may (the
     * failure's wrapper, made by CompletableFuture): if it fails, the future is failed with that error if that can be
     * done, else it stays incomplete, as the future of a CompletableFuture.supplyAsync whose completion fails does. A
     * StackOverflowError in the completion is out of reach, as in every primitive (README): its waiting callers may
     * then wait for ever. The first run of each VarHandle call site in the JVM links it, which allocates; class
     * initialization runs every one, and the futures' completions, on throwaway calls (linkStateChanges; if that runs
     * out of memory, the first constructor does, CallSiteLinking), so a completion on an exhausted heap finds them
     * linked.
     *
     * Interrupted waiters leave their node on the stack (LEFT) until the completion: a call that runs long under many
     * interrupted waiters holds one small JoinedCaller for each.
     */

    private static final Executor THREAD_PER_CALL = new VirtualThreadPerTask("ants4j-singleflight-");

    /** Links the call sites before any SingleFlight has state (see {@link CallSiteLinking}). */
    private static final CallSiteLinking LINKING = new CallSiteLinking() {
        @Override
        void runEachCallSite() {
            linkStateChanges();
        }
    };

    static {
        try {
            // the lookups of the table and of the calls' state here, where a failure is this class's, not inside the
            // linking below, which passes over a failure and would leave a class refused for good under a usable
            // SingleFlight
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            lookup.ensureInitialized(CallTable.class);
            lookup.ensureInitialized(SubmittedCall.class);
            lookup.ensureInitialized(JoinedCaller.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        LINKING.attempt();
    }

    /**
     * Runs on a throwaway call every {@code VarHandle} access a join, a leave, a completion and a
     * hand-over make: the first run of each call site in the JVM links it, which allocates, and a
     * completion must not fail for that on a heap its function exhausted. The throwaway hand-overs clear
     * the interrupt status, as a completion does; the linking thread's is its own, and is set again.
     */
    private static void linkStateChanges() {
        boolean interrupted = Thread.interrupted();
        try {
            runStateChanges();
        } finally {
            if (interrupted) {
                try {
                    Thread.currentThread().interrupt();
                } catch (Throwable t) {
                    // a Thread subclass whose interrupt() throws: the class must not be left unusable for it
                }
            }
        }
    }

    private static void runStateChanges() {
        Thread unstarted = new Thread(() -> { }); // unparking a thread not started does nothing
        CallTable table = new CallTable();
        for (boolean fails : new boolean[] {false, true}) {
            SubmittedCall<Object> call =
                    new SubmittedCall<>("linking", CallTable.spread("linking"), new CompletableFuture<>());
            call.moveStage(SubmittedCall.PENDING, SubmittedCall.STARTED);
            CallTable.Stripe stripe = table.lock(call.hash);
            try {
                stripe.find(call.key, call.hash);
                stripe.link(call);
            } finally {
                stripe.unlock();
            }
            JoinedCaller left = new JoinedCaller(unstarted);
            call.join(left);
            left.move(JoinedCaller.WAITING, JoinedCaller.LEFT);
            JoinedCaller given = new JoinedCaller(unstarted);
            call.join(given);
            call.join(new JoinedCaller(new CompletableFuture<Result<Object>>()));
            call.handOver(unregister(table, call), null, fails ? new IllegalStateException("linking") : null);
            try {
                call.awaitOutcome(given);
            } catch (ExecutionException e) {
                if (!fails) {
                    throw new AssertionError(e);
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
        table.count();
    }

    /**
     * The outcome of a call that returned: its value, and whether it was shared (Go's {@code shared}).
     * Every caller of the call is given the same record.
     *
     * @param value what the call's function returned; may be {@code null}
     * @param shared {@code true} if, when the call completed, more than one of its callers was
     *     waiting for it (see the class description)
     * @param <V> the type of the value
     */
    public record Result<V>(V value, boolean shared) {
    }

    private final CallTable calls = new CallTable();

    /** Creates a {@code SingleFlight} with no call in flight. */
    public SingleFlight() {
        LINKING.ensure();
    }

    /**
     * Calls {@code fn} in this thread, unless a call for an equal key is in flight: then waits for
     * that call's outcome instead (Go's {@code Do}).
     *
     * @param key the key; calls for equal keys are collapsed
     * @param fn computes the value; called only if no call for {@code key} is in flight
     * @return the call's value and whether it was shared (see the class description)
     * @throws ExecutionException if the call's function threw; its cause is what it threw
     * @throws InterruptedException if this thread was interrupted while it waited for a call that
     *     another caller started (a caller that runs {@code fn} does not throw it)
     * @throws IllegalStateException if called from inside the function of the call in flight for
     *     {@code key}, in the thread running it (it would wait for itself)
     * @throws NullPointerException if {@code key} or {@code fn} is null
     */
    public Result<V> run(K key, Callable<? extends V> fn) throws ExecutionException, InterruptedException {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fn, "fn");
        FlightCall<V> mine = new FlightCall<>(key, CallTable.spread(key), Thread.currentThread());
        FlightCall<V> inFlight = registerOrJoin(mine, null);
        return inFlight == null ? runHere(mine, fn) : joinOrRun(mine, inFlight, fn);
    }

    /**
     * The rest of {@link #run} once a call of an equal key was found in flight: refuses a recursive run, else
     * joins the call in flight then, or runs {@code mine} if none is. Kept out of run, so that the code of run's
     * common path stays small enough to be compiled into its callers.
     */
    private Result<V> joinOrRun(FlightCall<V> mine, FlightCall<V> found, Callable<? extends V> fn)
            throws ExecutionException, InterruptedException {
        Thread self = mine.runner;
        JoinedCaller node = null;
        for (FlightCall<V> inFlight = found; ; inFlight = registerOrJoin(mine, node)) {
            if (inFlight == null) {
                return runHere(mine, fn);
            }
            if (inFlight.runner == self) {
                throw new IllegalStateException( // no key in the message: its toString may throw, or call run
                        "SingleFlight.run called from inside the function of the call in flight for the same key");
            }
            if (node != null) {
                return inFlight.awaitOutcome(node);
            }
            node = new JoinedCaller(self);
        }
    }

    /**
     * Starts a call of {@code fn} in a virtual thread of its own, unless a call for an equal key is in
     * flight: then joins that call (Go's {@code DoChan}). The key is registered, or the call in flight
     * joined, before this method returns.
     *
     * <p>The returned future completes with the call's outcome: normally with its {@link Result}, or
     * exceptionally with a {@link CompletionException} whose cause is what the function threw, as the
     * future of {@code CompletableFuture.supplyAsync} does ({@code get} throws {@link ExecutionException}
     * with that throwable as the cause, whatever it is, a {@code CancellationException} or a
     * {@code CompletionException} included; the future is not cancelled). Cancelling it stops this
     * caller's wait only: the call goes on for the others; until the call completes, it keeps a small
     * record of each caller that stopped waiting, as it does of an interrupted {@code run}. Dependent
     * actions added to it without an executor may run in the thread that completes the call: an
     * interrupt status that thread had, or that is set while they run (one of them may leave it set), is
     * kept from the dependents of the other callers' futures and set again when the completion returns;
     * the dependents of one future run one after another, so an interrupt status one of them leaves set
     * reaches the later dependents of the same future.
     *
     * @param key the key; calls for equal keys are collapsed
     * @param fn computes the value; called only if no call for {@code key} is in flight
     * @return a future of the call's outcome
     * @throws NullPointerException if {@code key} or {@code fn} is null
     */
    public CompletableFuture<Result<V>> submit(K key, Callable<? extends V> fn) {
        return submit(key, fn, THREAD_PER_CALL);
    }

    /**
     * Starts a call of {@code fn} on {@code executor}, unless a call for an equal key is in flight: then
     * joins that call, and {@code executor} is not used. The key is registered, or the call in flight
     * joined, before this method returns. The future is as {@link #submit(Object, Callable)}'s.
     *
     * <p>If {@code executor} throws, this method throws it, and the call completes with that throwable
     * as its failure (a caller that joined it meanwhile is given it, as the cause of an
     * {@code ExecutionException}) and its key is removed; unless the executor had already started the
     * call's task, whose outcome then stands (this caller, given the executor's throwable instead of the
     * future, then counts as waiting for {@link Result#shared} if the call completed before the executor
     * threw). A task the executor kept and runs after it threw does nothing.
     *
     * @param key the key; calls for equal keys are collapsed
     * @param fn computes the value; called only if no call for {@code key} is in flight
     * @param executor runs the call; it must run every task it accepts (a call it drops stays in
     *     flight for ever)
     * @return a future of the call's outcome
     * @throws RejectedExecutionException if {@code executor} refused the call (or whatever else it
     *     threw, as it is)
     * @throws NullPointerException if {@code key}, {@code fn} or {@code executor} is null
     */
    public CompletableFuture<Result<V>> submit(K key, Callable<? extends V> fn, Executor executor) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fn, "fn");
        Objects.requireNonNull(executor, "executor");
        CompletableFuture<Result<V>> future = new CompletableFuture<>();
        SubmittedCall<V> mine = new SubmittedCall<>(key, CallTable.spread(key), future);
        Runnable task = () -> runAsync(mine, fn);
        JoinedCaller node = null;
        for (;;) {
            FlightCall<V> inFlight = registerOrJoin(mine, node);
            if (inFlight == null) {
                return start(mine, task, executor);
            }
            if (node != null) {
                return future;
            }
            node = new JoinedCaller(future);
        }
    }

    /**
     * Forgets the call in flight for {@code key}, if any (Go's {@code Forget}): later calls for the key
     * start a new call instead of joining it. The forgotten call goes on, and its callers, those that
     * joined it before, are given its outcome.
     *
     * @param key the key
     * @throws NullPointerException if {@code key} is null
     */
    public void forget(K key) {
        int hash = CallTable.spread(Objects.requireNonNull(key, "key"));
        CallTable.Stripe stripe = calls.lock(hash);
        try {
            CallTable.Entry inFlight = stripe.find(key, hash);
            if (inFlight != null) {
                stripe.unlink(inFlight);
            }
        } finally {
            stripe.unlock();
        }
    }

    /**
     * Returns a string identifying this {@code SingleFlight} and the number of keys with a call in flight (a
     * forgotten call no longer counts, though its function may still run). The count is made by going through the keys: calls that start or
     * complete meanwhile may or may not be counted.
     *
     * @return e.g. {@code "SingleFlight@1b6d3586[keys in flight = 2]"}
     */
    @Override
    public String toString() {
        return super.toString() + "[keys in flight = " + calls.count() + "]";
    }

    /**
     * Registers {@code mine} for its key unless a call is in flight for an equal key; returns null if it registered
     * it, else the call in flight, which it joined with {@code node} if it was given one, unless that call's runner
     * is the thread of {@code node} (a recursive run, which the caller refuses). What the key's {@code equals}
     * throws, this throws, with nothing changed; so does making the key's stripe at its first use.
     */
    private FlightCall<V> registerOrJoin(FlightCall<V> mine, JoinedCaller node) {
        CallTable.Stripe stripe = calls.lock(mine.hash);
        try {
            @SuppressWarnings("unchecked")
            FlightCall<V> inFlight = (FlightCall<V>) stripe.find(mine.key, mine.hash);
            if (inFlight == null) {
                stripe.link(mine);
            } else if (node != null && node.waiter != inFlight.runner) {
                inFlight.join(node);
            }
            return inFlight;
        } finally {
            stripe.unlock();
        }
    }

    /**
     * Calls {@code fn} in this thread, the caller of run, completes {@code call} with what it returned or threw,
     * and returns this caller's outcome: made from that, and from the hand-over's record if the completion made
     * one (a call nobody joined is completed with no hand-over and leaves its fields unwritten).
     */
    private Result<V> runHere(FlightCall<V> call, Callable<? extends V> fn) throws ExecutionException {
        V value = null;
        Throwable failure = null;
        try {
            value = fn.call();
        } catch (Throwable t) {
            failure = t;
        }
        Result<V> record = completeAfterCall(call, value, failure);
        if (failure != null) {
            throw new ExecutionException(failure);
        }
        return record != null ? record : new Result<>(value, call.shared);
    }

    private CompletableFuture<Result<V>> start(SubmittedCall<V> call, Runnable task, Executor executor) {
        try {
            executor.execute(task);
        } catch (Throwable refusal) {
            // The executor may have run or kept the task before it threw: the call is failed only if
            // the task has not started it, and a task run later then does nothing.
            if (call.moveStage(SubmittedCall.PENDING, SubmittedCall.REFUSED)) {
                complete(call, null, refusal);
            } else {
                // nobody gets the future (this method throws): nobody waits
                call.moveStage(SubmittedCall.STARTED, SubmittedCall.ABANDONED);
            }
            throw refusal;
        }
        return call.owner;
    }

    private void runAsync(SubmittedCall<V> call, Callable<? extends V> fn) {
        if (call.moveStage(SubmittedCall.PENDING, SubmittedCall.STARTED)) {
            call.runner = Thread.currentThread();
            V value = null;
            Throwable failure = null;
            try {
                value = fn.call();
            } catch (Throwable t) {
                failure = t;
            }
            completeAfterCall(call, value, failure);
        }
    }

    /**
     * Completes {@code call} with what its function returned or threw. An {@link InterruptedException} of the
     * function sets the calling thread's interrupt status again, after the completion: the dependents of
     * joined futures that the completion runs in this thread are other callers' code, which the interrupt must
     * not reach (the completion keeps an interrupt status it finds away from them the same way).
     */
    private Result<V> completeAfterCall(FlightCall<V> call, V value, Throwable failure) {
        try {
            return complete(call, value, failure);
        } finally {
            if (failure instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Completes {@code call}: removes its key, takes its stack and hands its outcome to every caller that
     * joined it, and to the future of the {@code submit} that started it; a call of run that nobody joined
     * needs no hand-over (its caller makes its outcome from what the function returned or threw). Returns the
     * record the hand-over gave every caller, or null if there was none (no hand-over, a failure, or no memory
     * for it). Throws nothing: the caller that ran the function is given its outcome, as every other caller is,
     * whatever failed on the way to another caller.
     */
    private Result<V> complete(FlightCall<V> call, V value, Throwable failure) {
        // The completing thread's interrupt is its own: the dependents of joined futures that the hand-over
        // may run in this thread are other callers' code. The hand-over clears it before it completes each
        // future (one set meanwhile, sent to this thread or left by a dependent: the two cannot be told apart),
        // and it is set again at the end; a call with no future to complete leaves it alone.
        try {
            JoinedCaller joined = unregister(calls, call);
            return joined != null || call.owner() != null ? call.handOver(joined, value, failure) : null;
        } finally {
            if (call.interruptedDuringHandOver) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Unregisters {@code call} from {@code calls} (unless forget did) and takes the stack of the callers that
     * joined it: none can join it any more. Throws nothing: the stripe exists (the call was registered there),
     * its lock throws nothing, and the removal compares identities.
     */
    private static JoinedCaller unregister(CallTable calls, FlightCall<?> call) {
        CallTable.Stripe stripe = calls.lockExisting(call);
        try {
            stripe.unlink(call);
            JoinedCaller joined = call.joined;
            if (joined != null) {
                call.joined = null; // lets the nodes go with the hand-over: a call may be held on (by a kept task)
            }
            return joined;
        } finally {
            stripe.unlock();
        }
    }
}
