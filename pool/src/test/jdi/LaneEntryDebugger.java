import com.sun.jdi.Bootstrap;
import com.sun.jdi.Location;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.VMDeathEvent;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A single-file program (run as {@code java LaneEntryDebugger.java LINE CLASSPATH MAIN ARGS...}, so that the pool's
 * module-patched tests need not read {@code jdk.jdi}): launches {@code MAIN} under JDI with a breakpoint at line
 * {@code LINE} of {@code io.ants4j.pool.SpinningWorkers} (or of the class named by {@code -Ddebug.class}; set when
 * the class is prepared, before any of its code runs) that suspends only the thread that hits it; holds the first
 * thread named {@code probe-worker-*} (or with the prefix {@code -Ddebug.thread}) that hits
 * it until the program prints a line starting with {@code OUTCOME } (or {@code PROBE FAILED}), then lets it go.
 * Prints {@code HELD} when it holds that thread, and every line of the program's output.
 */
public class LaneEntryDebugger {
    public static void main(String[] args) throws Exception {
        int line = Integer.parseInt(args[0]);
        String classPath = args[1];
        String main = String.join(" ", java.util.Arrays.copyOfRange(args, 2, args.length));
        for (String l : runUnderDebugger(line, classPath, main)) {
            System.out.println(l);
        }
    }

    /** Launches the probe under JDI, holds its worker right after the lane entry CAS; returns its output lines. */
    private static List<String> runUnderDebugger(int line, String classPath, String main) throws Exception {
        LaunchingConnector launching = Bootstrap.virtualMachineManager().defaultConnector();
        Map<String, Connector.Argument> arguments = launching.defaultArguments();
        arguments.get("home").setValue(System.getProperty("java.home"));
        arguments.get("options").setValue("-cp " + classPath);
        arguments.get("main").setValue(main);
        VirtualMachine vm = launching.launch(arguments);
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        List<String> out = new ArrayList<>();
        Thread stdout = drain(vm.process().getInputStream(), lines);
        Thread stderr = drain(vm.process().getErrorStream(), lines);
        ClassPrepareRequest prepare = vm.eventRequestManager().createClassPrepareRequest();
        prepare.addClassFilter(System.getProperty("debug.class", "io.ants4j.pool.SpinningWorkers"));
        prepare.setSuspendPolicy(EventRequest.SUSPEND_ALL);
        prepare.enable();
        vm.resume();
        BreakpointRequest breakpoint = null;
        List<ThreadReference> held = new ArrayList<>();
        boolean released = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try {
            events:
            while (System.nanoTime() < deadline) {
                for (String l; (l = lines.poll()) != null; ) {
                    out.add(l);
                    if (l.startsWith("OUTCOME ") || l.startsWith("PROBE FAILED")) {
                        if (!released) {
                            released = true;
                            breakpoint.disable();
                            for (ThreadReference t : held) {
                                t.resume();
                            }
                        }
                    }
                }
                EventSet set = vm.eventQueue().remove(50);
                if (set == null) {
                    continue;
                }
                boolean resume = true;
                for (Event e : set) {
                    if (e instanceof ClassPrepareEvent cp) {
                        ReferenceType type = cp.referenceType();
                        Location at = type.locationsOfLine(line).get(0);
                        breakpoint = vm.eventRequestManager().createBreakpointRequest(at);
                        breakpoint.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
                        breakpoint.enable();
                    } else if (e instanceof BreakpointEvent bp) {
                        if (!released && bp.thread().name().startsWith(System.getProperty("debug.thread", "probe-worker-")) && held.isEmpty()) {
                            held.add(bp.thread());
                            out.add("HELD");
                            resume = false;
                        }
                    } else if (e instanceof VMDeathEvent || e instanceof VMDisconnectEvent) {
                        break events;
                    }
                }
                if (resume) {
                    set.resume();
                }
            }
        } catch (com.sun.jdi.VMDisconnectedException ended) {
            // the probe ended
        } finally {
            if (!vm.process().waitFor(30, TimeUnit.SECONDS)) {
                vm.process().destroyForcibly();
            }
            stdout.join(10_000);
            stderr.join(10_000);
            lines.drainTo(out);
        }
        return out;
    }

    private static Thread drain(InputStream in, BlockingQueue<String> lines) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in))) {
                for (String l; (l = r.readLine()) != null; ) {
                    lines.add(l);
                }
            } catch (java.io.IOException e) {
                lines.add("READ FAILED " + e);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

}
