package dev.servebench.report;

import dev.servebench.baseline.GateCase;
import dev.servebench.baseline.GateVerdict;
import dev.servebench.baseline.MachineDrift;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Renders gate outcomes: JUnit XML (one test case per metric × load point; a regression is a failure,
 * unjudged ones are skipped with their reason; plus a "machine speed probe" case when the probe was checked)
 * and a Markdown summary for a pull-request comment.
 */
public final class GateReport {

    private GateReport() {
    }

    /**
     * When the machine drifted, the probe's case is an error and every metric case is skipped with its
     * would-be verdict: a drifted run's numbers are shown, not judged.
     */
    public static String junitXml(String suite, List<? extends GateCase> outcomes, MachineDrift drift) {
        boolean drifted = drift.drifted();
        boolean probeCase = drift.status() != MachineDrift.Status.NOT_CHECKED;
        StringWriter text = new StringWriter();
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(text);
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeStartElement("testsuite");
            xml.writeAttribute("name", suite);
            xml.writeAttribute("tests", Integer.toString(outcomes.size() + (probeCase ? 1 : 0)));
            xml.writeAttribute("failures", drifted ? "0"
                    : Long.toString(outcomes.stream().filter(o -> o.verdict().fails()).count()));
            xml.writeAttribute("skipped", drifted ? Integer.toString(outcomes.size())
                    : Long.toString(outcomes.stream().filter(GateReport::skipped).count()));
            xml.writeAttribute("errors", drifted ? "1" : Long.toString(unjudged(outcomes)));
            if (probeCase) {
                xml.writeStartElement("testcase");
                xml.writeAttribute("classname", suite + ".environment");
                xml.writeAttribute("name", "machine speed probe");
                if (drifted) {
                    xml.writeStartElement("error");
                    xml.writeAttribute("message", drift.message());
                    xml.writeAttribute("type", "machine-drift");
                    xml.writeCharacters(drift.message());
                } else {
                    xml.writeStartElement("system-out");
                    xml.writeCharacters(drift.message());
                }
                xml.writeEndElement();
                xml.writeEndElement();
            }
            for (GateCase outcome : outcomes) {
                xml.writeStartElement("testcase");
                xml.writeAttribute("classname", suite + "." + outcome.group());
                xml.writeAttribute("name", outcome.subject());
                if (drifted) {
                    xml.writeStartElement("skipped");
                    xml.writeAttribute("message", "not judged (machine drift): " + outcome.message());
                    xml.writeEndElement();
                } else if (outcome.verdict().fails()) {
                    xml.writeStartElement("failure");
                    xml.writeAttribute("message", outcome.message());
                    xml.writeAttribute("type", "regression");
                    xml.writeCharacters(outcome.message());
                    xml.writeEndElement();
                } else if (outcome.verdict() == GateVerdict.INSUFFICIENT_DATA) {
                    // A gated comparison that could not be made is an error, never a quiet skip.
                    xml.writeStartElement("error");
                    xml.writeAttribute("message", "not judged: " + outcome.message());
                    xml.writeAttribute("type", "not-judged");
                    xml.writeCharacters("not judged: " + outcome.message());
                    xml.writeEndElement();
                } else if (skipped(outcome)) {
                    xml.writeStartElement("skipped");
                    xml.writeAttribute("message", outcome.message());
                    xml.writeEndElement();
                } else {
                    xml.writeStartElement("system-out");
                    xml.writeCharacters(outcome.message());
                    xml.writeEndElement();
                }
                xml.writeEndElement();
            }
            xml.writeEndElement();
            xml.writeEndDocument();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("writing JUnit XML failed", e);
        }
        return text.toString();
    }

    public static String markdown(String title, List<? extends GateCase> outcomes, MachineDrift drift) {
        return markdown(title, outcomes, drift.drifted(), drift.message(), HISTORY_UNJUDGED);
    }

    /**
     * The Markdown of an A/B comparison: no machine probe (drift hits both sides of a round alike), and
     * {@code note} in its place, e.g. "paired, 8 rounds: …".
     */
    public static String pairedMarkdown(String title, List<? extends GateCase> outcomes, String note) {
        return markdown(title, outcomes, false, note, "fewer than " + dev.servebench.baseline.PairedComparison.MIN_ROUNDS
                + " rounds in which both sides measured it, or too many disturbed rounds to show no change");
    }

    private static final String HISTORY_UNJUDGED = "fewer than 2 repeats on a side, or missing on a side";

    private static String markdown(String title, List<? extends GateCase> outcomes, boolean drifted, String note,
            String unjudgedReason) {
        long regressions = outcomes.stream().filter(o -> o.verdict() == GateVerdict.REGRESSION).count();
        long improvements = outcomes.stream().filter(o -> o.verdict() == GateVerdict.IMPROVEMENT).count();
        StringBuilder out = new StringBuilder("### ").append(title).append("\n\n");
        long unjudged = unjudged(outcomes);
        if (!drifted && (unjudged > 0 || outcomes.isEmpty())) {
            out.append(outcomes.isEmpty() ? "**Not judged: the run and the baseline have no load point in common**"
                    : "**Not judged: " + unjudged + " of " + outcomes.size() + " gated comparison(s) could not be made**"
                    + " (" + unjudgedReason + "): the gate fails until they can be")
                    .append("\n\n");
            outcomes.stream().filter(o -> o.verdict() == GateVerdict.INSUFFICIENT_DATA).limit(MAX_LISTED)
                    .forEach(o -> out.append("- `").append(o.subject()).append("`: ").append(o.message().replace("|", "\\|")).append('\n'));
            if (unjudged > MAX_LISTED) {
                out.append("- … and ").append(unjudged - MAX_LISTED).append(" more\n");
            }
            out.append('\n');
        }
        if (drifted) {
            out.append("**Not judged: the machine drifted** · what the comparisons would say is below, for"
                    + " information\n\n");
        } else {
            out.append(regressions == 0 ? "**No regression**" : "**" + regressions + " regression(s)**")
                    .append(String.format(Locale.ROOT, " · %d improvement(s) · %d metric × load point comparisons",
                            improvements, outcomes.size())).append("\n\n");
        }
        out.append(note.replace("|", "\\|")).append("\n\n");
        List<? extends GateCase> notable = outcomes.stream()
                .filter(o -> o.verdict() == GateVerdict.REGRESSION || o.verdict() == GateVerdict.IMPROVEMENT).toList();
        if (!notable.isEmpty()) {
            out.append("| verdict | metric @ load point | detail |\n|---|---|---|\n");
            for (GateCase o : notable) {
                out.append("| ").append(o.verdict()).append(drifted ? " (not judged)" : "").append(" | `").append(o.subject()).append("` | ").append(o.message().replace("|", "\\|")).append(" |\n");
            }
        }
        return out.toString();
    }

    private static final int MAX_LISTED = 20;

    /** Informational metrics: reported, never judged. */
    private static boolean skipped(GateCase outcome) {
        return outcome.verdict() == GateVerdict.NOT_JUDGED;
    }

    /** Gated comparisons that could not be made. */
    private static long unjudged(List<? extends GateCase> outcomes) {
        return outcomes.stream().filter(o -> o.verdict() == GateVerdict.INSUFFICIENT_DATA).count();
    }
}
