package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The table of a SingleFlight's calls in flight: find, link and unlink under a stripe's lock, growth, count. */
class CallTableTest {

    private static CallTable.Entry find(CallTable table, Object key) {
        int hash = CallTable.spread(key);
        CallTable.Stripe stripe = table.lock(hash);
        try {
            return stripe.find(key, hash);
        } finally {
            stripe.unlock();
        }
    }

    private static CallTable.Entry link(CallTable table, Object key) {
        CallTable.Entry entry = new CallTable.Entry(key, CallTable.spread(key));
        CallTable.Stripe stripe = table.lock(entry.hash);
        try {
            assertNull(stripe.find(key, entry.hash));
            stripe.link(entry);
        } finally {
            stripe.unlock();
        }
        return entry;
    }

    private static boolean unlink(CallTable table, CallTable.Entry entry) {
        CallTable.Stripe stripe = table.lockExisting(entry);
        try {
            return stripe.unlink(entry);
        } finally {
            stripe.unlock();
        }
    }

    /** A key with the given hash, equal to the keys of its name. */
    private record Key(String name, int hash) {
        @Override
        public int hashCode() {
            return hash;
        }
    }

    @Test
    void manyKeysAreFoundAcrossTheGrowthOfEveryStripeAndUnlinkedByIdentity() {
        CallTable table = new CallTable();
        List<CallTable.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            entries.add(link(table, "key-" + i));
        }
        assertEquals(20_000, table.count());
        for (int i = 0; i < 20_000; i++) {
            assertSame(entries.get(i), find(table, "key-" + i));
        }
        for (int i = 0; i < 20_000; i += 2) {
            assertTrue(unlink(table, entries.get(i)));
            assertFalse(unlink(table, entries.get(i)), "unlinked twice");
        }
        assertEquals(10_000, table.count());
        for (int i = 0; i < 20_000; i++) {
            CallTable.Entry found = find(table, "key-" + i);
            if (i % 2 == 0) {
                assertNull(found);
            } else {
                assertSame(entries.get(i), found);
            }
        }
    }

    @Test
    void collidingKeysShareABinAndLeaveItOneByOneFromAnyPlace() {
        CallTable table = new CallTable();
        List<CallTable.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            entries.add(link(table, new Key("k" + i, 7)));
        }
        assertEquals(50, table.count());
        // an entry equal to a linked one, but another object: not linked, unlink leaves the linked one alone
        assertFalse(unlink(table, new CallTable.Entry(new Key("k3", 7), CallTable.spread(new Key("k3", 7)))));
        for (int i : new int[] {25, 49, 0, 10}) { // the middle, the first linked, the last linked, another
            assertTrue(unlink(table, entries.get(i)));
            assertNull(find(table, new Key("k" + i, 7)));
        }
        assertEquals(46, table.count());
        for (int i = 0; i < 50; i++) {
            if (i != 25 && i != 49 && i != 0 && i != 10) {
                assertSame(entries.get(i), find(table, new Key("k" + i, 7)));
            }
        }
    }

    @Test
    void aKeyOfAnotherHashIsNotFoundThoughItIsEqual() {
        CallTable table = new CallTable();
        CallTable.Entry linked = link(table, new Key("same", 1));
        assertNull(find(table, new Key("same", 2)), "only keys of the same hash are compared");
        assertSame(linked, find(table, new Key("same", 1)));
    }

    @Test
    void fourStripesForEachProcessorAPowerOfTwoFrom16To256() {
        assertEquals(16, CallTable.stripeCount(0));
        assertEquals(16, CallTable.stripeCount(1));
        assertEquals(16, CallTable.stripeCount(4));
        assertEquals(32, CallTable.stripeCount(5));
        assertEquals(64, CallTable.stripeCount(16));
        assertEquals(256, CallTable.stripeCount(64));
        assertEquals(256, CallTable.stripeCount(1000));
    }
}
