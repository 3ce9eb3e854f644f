package io.ants4j.examples;

import io.ants4j.primitives.WaitGroup;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A Go program and its port, side by side: the {@code sync.WaitGroup} example of ants4j's design notes.
 *
 * <pre>{@code
 * func main() {
 *     tasks := []func(){
 *         func() { time.Sleep(time.Second); fmt.Println("1 sec later") },
 *         func() { time.Sleep(time.Second * 2); fmt.Println("2 sec later") },
 *     }
 *     var wg sync.WaitGroup
 *     wg.Add(len(tasks))
 *     for _, task := range tasks {
 *         task := task
 *         go func() {
 *             defer wg.Done()
 *             task()
 *         }()
 *     }
 *     wg.Wait()
 *     fmt.Println("exit")
 * }
 * }</pre>
 *
 * Line by line: {@code go func()} is a virtual thread, {@code defer wg.Done()} a {@code finally}, and
 * {@code wg.Wait()} is {@code wg.await()}, which throws {@link InterruptedException} as Java's blocking calls do.
 * {@code wg.go(task)} does the {@code add}, the thread and the {@code done} in one call.
 */
public final class GoPort {
    private GoPort() {
    }

    /**
     * Runs the Go program's port with its own durations: prints "1 sec later", "2 sec later" and "exit".
     *
     * @param args ignored
     * @throws InterruptedException if interrupted while waiting for the tasks
     */
    public static void main(String[] args) throws InterruptedException {
        run(Duration.ofSeconds(1), System.out::println);
    }

    /**
     * The port, with the Go program's second as a parameter.
     *
     * @param second how long the Go program's {@code time.Second} lasts here
     * @param println where {@code fmt.Println} writes, from whichever thread calls it
     * @throws InterruptedException if interrupted while waiting for the tasks
     */
    public static void run(Duration second, Consumer<String> println) throws InterruptedException {
        List<Runnable> tasks = List.of(
                () -> { sleep(second); println.accept("1 sec later"); },
                () -> { sleep(second.multipliedBy(2)); println.accept("2 sec later"); });
        WaitGroup wg = new WaitGroup();
        wg.add(tasks.size());
        for (Runnable task : tasks) {
            Thread.ofVirtual().start(() -> {
                try {
                    task.run();
                } finally {
                    wg.done();
                }
            });
        }
        wg.await();
        println.accept("exit");
    }

    /** Go's {@code time.Sleep}: an interrupt ends the sleep early and stays set. */
    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
