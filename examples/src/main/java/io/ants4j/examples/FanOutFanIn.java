package io.ants4j.examples;

import io.ants4j.primitives.WaitGroup;
import java.util.List;

/**
 * Fan-out/fan-in with {@link WaitGroup#go}: one virtual thread per document counts its words, and the caller
 * waits for all of them before it adds the counts up. Each task writes its own slot of the array, and
 * {@code await} returns only after every task's {@code done}, so the caller reads every slot without a lock.
 */
public final class FanOutFanIn {
    private FanOutFanIn() {
    }

    /**
     * Counts the words of three documents concurrently and prints the total.
     *
     * @param args ignored
     * @throws InterruptedException if interrupted while waiting for the counts
     */
    public static void main(String[] args) throws InterruptedException {
        List<String> documents = List.of(
                "Do not communicate by sharing memory",
                "instead, share memory by communicating",
                "A little copying is better than a little dependency");
        System.out.println(countWords(documents) + " words");
    }

    /**
     * Counts the words of every document, each on its own virtual thread.
     *
     * @param documents the documents
     * @return the number of words in all of them
     * @throws InterruptedException if interrupted while waiting for the counts
     */
    public static long countWords(List<String> documents) throws InterruptedException {
        long[] counts = new long[documents.size()];
        WaitGroup wg = new WaitGroup();
        for (int i = 0; i < documents.size(); i++) {
            int slot = i;
            wg.go(() -> counts[slot] = documents.get(slot).split("\\s+").length);  // fan out
        }
        wg.await();                                                                // fan in
        long total = 0;
        for (long count : counts) {
            total += count;
        }
        return total;
    }
}
