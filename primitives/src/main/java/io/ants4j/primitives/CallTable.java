package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The calls in flight of a {@link SingleFlight}, by key: a hash table whose entries are the calls themselves, so
 * that registering a call allocates nothing beside it. Every operation on a key takes the lock of the key's
 * stripe ({@link #lock}), and the caller does its work on the entries there: find, link, unlink, and whatever
 * must happen under the same lock (a join).
 */
final class CallTable {
    /*
     * Implementation notes.
     *
     * Striped, as ConcurrentHashMap's segments were before JDK 8: a fixed number of stripes (a power of two, four
     * for each processor, from 16 to 256), each a SpinLock and a chained hash table of its own that only grows. A
     * key's stripe is chosen by the low bits of its spread hash, its bin in the stripe by the bits above them.
     * Stripes are made on first use (a CAS into the array, the Stripe allocated before it), so an unused table
     * costs its array; a stripe's bins are made at its first link.
     *
     * Every read and write of a stripe's bins and entries' links is made under its lock; the lock's release and
     * acquire order them. The count is written under it too, and read without it (count(), for toString, which a
     * key's equals may call while its thread holds the lock). The lock is not reentrant: a thread that holds a
     * stripe's lock, inside a key's equals, and asks for it again is refused (IllegalStateException) where it
     * registers, joins or forgets, instead of waiting for itself; the stripe records its owner for that. Locking throws nothing (SpinLock.lock), finding calls the keys' equals
     * (which may throw: nothing has changed then), linking allocates only to grow the bins, before it changes
     * anything, and passes over the growth if that fails (the chains grow longer); unlinking compares
     * identities: it calls no key's methods and cannot fail. So a completion, which unlinks, throws nothing.
     */

    /** A call in the table: its key, the key's spread hash, and the next entry of its bin. */
    static class Entry {
        final Object key;
        final int hash;
        /** The next entry of the bin; read and written under the stripe's lock. */
        Entry next;

        Entry(Object key, int hash) {
            this.key = key;
            this.hash = hash;
        }
    }

    private static final int STRIPES = stripeCount(Runtime.getRuntime().availableProcessors());
    private static final int STRIPE_BITS = Integer.numberOfTrailingZeros(STRIPES);
    private static final int FIRST_BINS = 2;
    /** Bins beyond which a stripe no longer grows: the hash bits above the stripe's have run out. */
    private static final int MAX_BINS = 1 << (30 - STRIPE_BITS);
    private static final VarHandle STRIPE = MethodHandles.arrayElementVarHandle(Stripe[].class);
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(Stripe.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Stripe[] stripes = new Stripe[STRIPES];

    /** Four stripes for each processor, a power of two from 16 to 256. */
    static int stripeCount(int processors) {
        int wanted = Math.min(256, Math.max(16, 4 * Math.max(1, processors)));
        return Integer.highestOneBit(wanted - 1) << 1;
    }

    /** The hash the table uses for {@code key}: its hashCode with the high bits spread into the low ones. */
    static int spread(Object key) {
        int h = key.hashCode();
        return h ^ (h >>> 16);
    }

    /**
     * Locks and returns the stripe of {@code hash}. Throws nothing but what making the stripe, on its first use,
     * throws ({@code OutOfMemoryError}): then nothing is locked.
     */
    Stripe lock(int hash) {
        Stripe stripe = stripe(hash);
        Thread self = Thread.currentThread();
        if (!stripe.lock.tryLock()) {
            if (stripe.owner == self) {
                throw new IllegalStateException(
                        "SingleFlight called from inside the equals of a key it was comparing (with its lock held)");
            }
            stripe.lock.lock();
        }
        stripe.owner = self;
        return stripe;
    }

    /**
     * Locks and returns the stripe of an entry that was linked, whose stripe therefore exists: throws nothing. (A
     * thread that holds that stripe's lock already, inside a key's equals, would wait for itself: a misuse the
     * class javadoc of SingleFlight names.)
     */
    Stripe lockExisting(Entry entry) {
        Stripe stripe = (Stripe) STRIPE.getAcquire(stripes, entry.hash & (STRIPES - 1));
        stripe.lock.lock();
        stripe.owner = Thread.currentThread();
        return stripe;
    }

    /**
     * The number of entries, read stripe by stripe without locking (a key's equals, run under a stripe's lock, may
     * call it): entries linked or unlinked meanwhile may or may not be counted.
     */
    int count() {
        int count = 0;
        for (int i = 0; i < STRIPES; i++) {
            Stripe stripe = (Stripe) STRIPE.getAcquire(stripes, i);
            if (stripe != null) {
                count += (int) COUNT.getOpaque(stripe);
            }
        }
        return count;
    }

    private Stripe stripe(int hash) {
        int index = hash & (STRIPES - 1);
        Stripe stripe = (Stripe) STRIPE.getAcquire(stripes, index);
        if (stripe == null) {
            Stripe made = new Stripe();
            stripe = (Stripe) STRIPE.compareAndExchangeRelease(stripes, index, null, made);
            if (stripe == null) {
                stripe = made;
            }
        }
        return stripe;
    }

    /** A lock and the bins of the keys whose hash ends in its index. */
    static final class Stripe {
        private final SpinLock lock = new SpinLock();
        /**
         * The thread holding the lock, or null: written by that thread only, so a thread reads itself here if and
         * only if it holds the lock.
         */
        private Thread owner;
        /** Null until the first link; a power of two long. */
        private Entry[] bins;
        /** Written under the lock; read without it by {@link CallTable#count}. */
        private int count;

        void unlock() {
            owner = null;
            lock.unlock();
        }

        /** The entry whose key equals {@code key}, or null; calls {@code key.equals}, which may throw. */
        Entry find(Object key, int hash) {
            Entry[] bins = this.bins;
            if (bins != null) {
                for (Entry e = bins[binOf(hash, bins.length)]; e != null; e = e.next) {
                    if (e.hash == hash && (e.key == key || key.equals(e.key))) {
                        return e;
                    }
                }
            }
            return null;
        }

        /**
         * Links {@code entry}, whose key no entry has (the caller has just looked). Allocates only to make or grow
         * the bins, before it links; if that fails, it links into the bins there are, or throws if there are
         * none yet (then nothing has changed).
         */
        void link(Entry entry) {
            Entry[] bins = this.bins;
            if (bins == null) {
                bins = this.bins = new Entry[FIRST_BINS];
            } else if (count >= bins.length && bins.length < MAX_BINS) {
                bins = grow(bins);
            }
            int bin = binOf(entry.hash, bins.length);
            entry.next = bins[bin];
            bins[bin] = entry;
            count++;
        }

        /** Unlinks {@code entry} if it is linked; returns whether it was. Compares identities only. */
        boolean unlink(Entry entry) {
            Entry[] bins = this.bins;
            if (bins == null) {
                return false;
            }
            int bin = binOf(entry.hash, bins.length);
            for (Entry e = bins[bin], before = null; e != null; before = e, e = e.next) {
                if (e == entry) {
                    if (before == null) {
                        bins[bin] = e.next;
                    } else {
                        before.next = e.next;
                    }
                    e.next = null;
                    count--;
                    return true;
                }
            }
            return false;
        }

        /** Twice as many bins, or the same ones if there is no memory for more (longer chains, still correct). */
        private Entry[] grow(Entry[] old) {
            Entry[] grown;
            try {
                grown = new Entry[old.length << 1];
            } catch (Throwable noMemory) {
                return old;
            }
            for (Entry head : old) {
                for (Entry e = head, next; e != null; e = next) {
                    next = e.next;
                    int bin = binOf(e.hash, grown.length);
                    e.next = grown[bin];
                    grown[bin] = e;
                }
            }
            return bins = grown;
        }

        private static int binOf(int hash, int length) {
            return (hash >>> STRIPE_BITS) & (length - 1);
        }
    }
}
