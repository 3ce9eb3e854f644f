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
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A single-file program (run as {@code java ThreadHoldingDebugger.java CLASSPATH MAIN ARGS...}, so that the pool's
 * module-patched tests need not read {@code jdk.jdi}) that launches {@code MAIN} under JDI and holds threads at lines
 * of one class ({@code -Ddebug.class}, by default {@code io.ants4j.pool.SpinningWorkers}), each suspended alone, as a
 * preemption there would suspend it. Two ways to ask for a hold:
 * <ul>
 * <li>from the start, with {@code -Ddebug.line=LINE -Ddebug.thread=PREFIX}: the first thread named {@code PREFIX*}
 *     that reaches {@code LINE} is held (the breakpoint is set when the class is prepared, before any of its code
 *     runs); prints {@code HELD};</li>
 * <li>from the program: it prints {@code ARM <id> <line> <threadPrefix>} to have the next thread named
 *     {@code threadPrefix*} that reaches {@code line} held (one thread per id), and {@code RELEASE <id>} to let it
 *     go; the debugger answers {@code ARMED <id>} on the program's standard input once the breakpoint is set, and
 *     writes {@code HELD <id>} there (and prints it) when it holds a thread.</li>
 * </ul>
 * Everything is let go when the program prints a line starting with {@code OUTCOME } or {@code PROBE FAILED}.
 * Prints every line of the program's output.
 */
public class ThreadHoldingDebugger {
    public static void main(String[] args) throws Exception {
        String classPath = args[0];
        String main = String.join(" ", java.util.Arrays.copyOfRange(args, 1, args.length));
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
        OutputStream stdin = vm.process().getOutputStream();
        ClassPrepareRequest prepare = vm.eventRequestManager().createClassPrepareRequest();
        prepare.addClassFilter(System.getProperty("debug.class", "io.ants4j.pool.SpinningWorkers"));
        prepare.setSuspendPolicy(EventRequest.SUSPEND_ALL);
        prepare.enable();
        vm.resume();
        ReferenceType type = null;
        Map<BreakpointRequest, String> armed = new HashMap<>(); // request -> "id prefix"
        Map<String, ThreadReference> held = new HashMap<>();
        List<String> pendingArms = new ArrayList<>();
        String line = System.getProperty("debug.line");
        if (line != null) { // the hold asked for from the start: id "" (prints HELD)
            pendingArms.add("ARM  " + line + " " + System.getProperty("debug.thread", "probe-worker-"));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try {
            events:
            while (System.nanoTime() < deadline) {
                for (String l; (l = lines.poll()) != null; ) {
                    out.add(l);
                    if (l.startsWith("ARM ")) {
                        pendingArms.add(l);
                    } else if (l.startsWith("RELEASE ")) {
                        ThreadReference t = held.remove(l.substring(8).trim());
                        if (t != null) {
                            t.resume();
                        }
                    } else if (l.startsWith("OUTCOME ") || l.startsWith("PROBE FAILED")) {
                        for (BreakpointRequest r : armed.keySet()) {
                            r.disable();
                        }
                        armed.clear();
                        for (ThreadReference t : held.values()) {
                            t.resume();
                        }
                        held.clear();
                    }
                }
                if (type != null) {
                    arm(vm, type, pendingArms, armed, stdin);
                }
                EventSet set = vm.eventQueue().remove(20);
                if (set == null) {
                    continue;
                }
                boolean resume = true;
                for (Event e : set) {
                    if (e instanceof ClassPrepareEvent cp) {
                        type = cp.referenceType();
                        // armed while every thread is still suspended for this event: none runs the class first
                        arm(vm, type, pendingArms, armed, stdin);
                    } else if (e instanceof BreakpointEvent bp) {
                        String spec = armed.get((BreakpointRequest) bp.request());
                        if (spec != null) {
                            String[] f = spec.split(" ");
                            if (bp.thread().name().startsWith(f[1])) {
                                bp.request().disable();
                                armed.remove((BreakpointRequest) bp.request());
                                held.put(f[0], bp.thread());
                                if (f[0].isEmpty()) {
                                    out.add("HELD");
                                } else {
                                    out.add("HELD " + f[0]);
                                    stdin.write(("HELD " + f[0] + "\n").getBytes(StandardCharsets.UTF_8));
                                    stdin.flush();
                                }
                                resume = false;
                            }
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
        for (String l : out) {
            System.out.println(l);
        }
    }

    /** Sets a breakpoint for each pending "ARM id line prefix"; answers ARMED id for those asked by the program. */
    private static void arm(VirtualMachine vm, ReferenceType type, List<String> pendingArms,
            Map<BreakpointRequest, String> armed, OutputStream stdin) throws Exception {
        for (String a : pendingArms) {
            String[] f = a.split(" ");
            Location at = type.locationsOfLine(Integer.parseInt(f[2])).get(0);
            BreakpointRequest r = vm.eventRequestManager().createBreakpointRequest(at);
            r.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
            r.enable();
            armed.put(r, f[1] + " " + f[3]);
            if (!f[1].isEmpty()) {
                stdin.write(("ARMED " + f[1] + "\n").getBytes(StandardCharsets.UTF_8));
                stdin.flush();
            }
        }
        pendingArms.clear();
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
