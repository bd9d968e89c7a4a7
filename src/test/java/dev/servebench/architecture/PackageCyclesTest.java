package dev.servebench.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The top-level packages of dev.servebench form no cycle (subpackages fold into their parent): the package
 * graph stays the data flow docs/architecture.md draws. Read with the JDK's own jdeps from the compiled
 * classes, so it sees every reference the compiler emitted, not only imports.
 */
class PackageCyclesTest {

    private static final Pattern EDGE = Pattern.compile(
            "^\\s+dev\\.servebench\\.([a-z0-9]+)\\S*\\s+->\\s+dev\\.servebench\\.([a-z0-9]+)\\.(\\S+)", Pattern.MULTILINE);

    @Test
    void topLevelPackagesFormNoCycle() {
        Map<String, Set<String>> graph = graph();
        assertThat(graph).as("jdeps found the packages").containsKeys("client", "load", "metric", "report");
        List<Set<String>> cycles = stronglyConnected(graph).stream().filter(c -> c.size() > 1).toList();
        assertThat(cycles).as("cycles between top-level packages (edges: %s)", graph).isEmpty();
    }

    @Test
    void theArchitectureDocumentNamesEveryTopLevelPackage() throws Exception {
        String doc = Files.readString(Path.of("docs/architecture.md"));
        for (String pkg : graph().keySet()) {
            assertThat(doc).as("docs/architecture.md mentions `%s`", pkg).contains("`" + pkg + "`");
        }
    }

    /** Top-level package → the top-level packages its classes reference. */
    static Map<String, Set<String>> graph() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new IllegalStateException(
                "this JDK has no jdeps tool"));
        StringWriter out = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "-verbose:class",
                "target/classes");
        assertThat(exit).as("jdeps exit code").isZero();
        Map<String, Set<String>> graph = new TreeMap<>();
        Matcher m = EDGE.matcher(out.toString());
        while (m.find()) {
            String from = m.group(1);
            String to = m.group(2);
            graph.computeIfAbsent(from, k -> new TreeSet<>());
            if (!from.equals(to)) {
                graph.get(from).add(to);
                graph.computeIfAbsent(to, k -> new TreeSet<>());
            }
        }
        return graph;
    }

    /** Tarjan's algorithm, iterative enough for a graph of a few dozen packages. */
    private static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> components = new ArrayList<>();
        for (String v : graph.keySet()) {
            if (!index.containsKey(v)) {
                visit(v, graph, index, low, stack, components);
            }
        }
        return components;
    }

    private static void visit(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
                              Map<String, Integer> low, Deque<String> stack, List<Set<String>> components) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        for (String w : graph.get(v)) {
            if (!index.containsKey(w)) {
                visit(w, graph, index, low, stack, components);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                component.add(w);
            } while (!w.equals(v));
            components.add(component);
        }
    }
}
