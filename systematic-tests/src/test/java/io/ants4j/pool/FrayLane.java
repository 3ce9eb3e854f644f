package io.ants4j.pool;

/**
 * A pool's fast lane ({@link SpinningWorkers}) for the Fray tests, opened to the test package: one lane, one
 * owner whose worker yields at every look at the slot (a scheduling point, so that Fray may run another thread at
 * any spin: the lane's own spin-wait is none), on a small spin budget.
 */
public final class FrayLane {
    /** What {@link #spin} returns to a worker that spun in vain or was taken out of the lane. */
    public static final Object WITHDRAWING = SpinningWorkers.WITHDRAWING;
    /** What {@link #spin} returns to a worker that could not enter the lane. */
    public static final Object NONE = SpinningWorkers.NONE;

    private final SpinningWorkers lane;
    private final SpinningWorkers.Owner owner;

    private FrayLane(int workerSpins) {
        this(new SpinningWorkers(workerSpins));
    }

    /** An owner whose {@code stopsSpinning} is {@code stops}, read before a yield (a scheduling point after the look). */
    private FrayLane(int workerSpins, java.util.function.BooleanSupplier stops) {
        this.lane = new SpinningWorkers(workerSpins);
        SpinningWorkers.Marks marks = SpinningWorkers.newMarks();
        this.owner = new SpinningWorkers.Owner() {
            @Override
            public boolean stopsSpinning() {
                boolean r = stops.getAsBoolean();
                Thread.yield();
                return r;
            }

            @Override
            public SpinningWorkers.Marks marks() {
                return marks;
            }
        };
    }

    /**
     * A lane whose worker spins {@code workerSpins} times before it withdraws, and whose pool says
     * {@code stopsSpinning} (a submitter waits, the pool closed, a task waits for the others) when {@code stops}
     * does.
     */
    public static FrayLane withSpinsStoppingWhen(int workerSpins, java.util.function.BooleanSupplier stops) {
        return new FrayLane(workerSpins, stops);
    }

    /** Whether a worker spins in the lane now. */
    public boolean hasSpinner() {
        return lane.hasSpinner();
    }

    /** The hot worker's side: having run {@code last} from the lane, it spins again; as {@link #spin}. */
    public Object spinHot(Object last) {
        return lane.spin(last, owner);
    }

    /** An owner of its own (marks of its own: another pool) on {@code lane}. */
    private FrayLane(SpinningWorkers lane) {
        this.lane = lane;
        SpinningWorkers.Marks marks = SpinningWorkers.newMarks();
        this.owner = new SpinningWorkers.Owner() {
            @Override
            public boolean stopsSpinning() {
                Thread.yield();
                return false;
            }

            @Override
            public SpinningWorkers.Marks marks() {
                return marks;
            }
        };
    }

    /** A lane whose worker spins {@code workerSpins} times before it withdraws. */
    public static FrayLane withSpins(int workerSpins) {
        return new FrayLane(workerSpins);
    }

    /**
     * The same lane seen by another pool sharing it, as a multi-pool's sub-pools do: an owner with marks of its own,
     * whose workers and submitters use the one slot.
     */
    public FrayLane anotherPoolOnTheSameLane() {
        return new FrayLane(lane);
    }

    /**
     * A submitter's hand-off to its own pool's worker withdrawing from the lane (under its pool's lock, in the
     * pool); false if no worker of this owner withdraws.
     */
    public boolean tryHandWithdrawing(Object payload) {
        return lane.tryHandWithdrawing(payload, owner);
    }

    /** The worker's side: enters the lane and spins; the payload handed to it, {@link #WITHDRAWING} or {@link #NONE}. */
    public Object spin() {
        return lane.spin(SpinningWorkers.NONE, owner);
    }

    /** A task waiting for the other tasks of its pool takes the spinning worker out of the lane. */
    public boolean takeOutSpinner() {
        return lane.takeOutSpinner();
    }

    /** Whether the worker in the lane is the owner's, withdrawing to its idle queue. */
    public boolean isWithdrawing() {
        return lane.isWithdrawing(owner);
    }

    /** A submitter's fast path. */
    public boolean tryHand(Object payload) {
        return lane.tryHand(payload, owner);
    }

    /** The pool's side once a worker returned {@link #WITHDRAWING}: frees the lane; a payload handed meanwhile, or {@link #NONE}. */
    public Object withdrawn() {
        return lane.withdrawn();
    }

    /** A worker that ran a payload from the lane (hot) leaves it. */
    public void leave() {
        lane.leave();
    }

    /** Workers in a lane now, over the JVM. */
    public static int inLanes() {
        return SpinningWorkers.inLanes();
    }
}
