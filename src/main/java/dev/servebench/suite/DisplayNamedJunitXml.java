package dev.servebench.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Gives the legacy JUnit XML's test cases their display names. The legacy format names a dynamic test by its
 * factory and indexes ({@code spec(SuiteSettings)[1][1][10]}), which says nothing in Jenkins; the suite's
 * names ({@code output_throughput ≥ 100 tok/s @ concurrency=1}) are the ones verdicts.json, the console and
 * the HTML report use. Failsafe writes the same names (its reporter's {@code usePhrasedTestCaseMethodName}).
 */
final class DisplayNamedJunitXml implements TestExecutionListener {

    private final Map<String, String> displayNames = new ConcurrentHashMap<>();

    @Override
    public void executionStarted(TestIdentifier test) {
        if (test.isTest()) {
            displayNames.put(test.getLegacyReportingName(), test.getDisplayName());
        }
    }

    /** Renames the test cases of every {@code TEST-*.xml} in {@code directory} that this run wrote. */
    void rename(Path directory) throws IOException {
        List<Path> files;
        try (Stream<Path> listed = Files.list(directory)) {
            files = listed.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml")).toList();
        }
        for (Path file : files) {
            rename(file, displayNames);
        }
    }

    private static void rename(Path file, Map<String, String> names) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            Document document = factory.newDocumentBuilder().parse(file.toFile());
            NodeList cases = document.getElementsByTagName("testcase");
            boolean changed = false;
            for (int i = 0; i < cases.getLength(); i++) {
                Element testcase = (Element) cases.item(i);
                String name = names.get(testcase.getAttribute("name"));
                if (name != null) {
                    testcase.setAttribute("name", name);
                    changed = true;
                }
            }
            if (changed) {
                var transformer = TransformerFactory.newInstance().newTransformer();
                transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
                Path written = file.resolveSibling(file.getFileName() + ".tmp");
                transformer.transform(new DOMSource(document), new StreamResult(written.toFile()));
                Files.move(written, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException
                | javax.xml.transform.TransformerException e) {
            throw new IOException(file + ": cannot rename its test cases: " + e.getMessage(), e);
        }
    }
}
