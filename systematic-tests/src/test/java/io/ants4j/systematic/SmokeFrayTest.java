package io.ants4j.systematic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ants4j.primitives.Mutex;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

@ExtendWith(FrayTestExtension.class)
class SmokeFrayTest {
    private int count;

    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false)
    void mutexCounts() throws InterruptedException {
        Mutex m = new Mutex();
        Runnable inc = () -> {
            m.lock();
            try {
                count++;
            } finally {
                m.unlock();
            }
        };
        Thread a = new Thread(inc);
        Thread b = new Thread(inc);
        a.start();
        b.start();
        a.join();
        b.join();
        assertEquals(2, count);
    }
}
