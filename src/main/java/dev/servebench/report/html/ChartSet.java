package dev.servebench.report.html;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/** The page's charts: each a {@code data-chart} div in the HTML and its options in the inlined data. */
final class ChartSet {

    private final Map<String, ObjectNode> options = new LinkedHashMap<>();

    /** Registers a chart; returns its div. Names are unique: the page script finds options by name. */
    String add(String name, ObjectNode option, String cssClass) {
        if (options.putIfAbsent(name, option) != null) {
            throw new IllegalArgumentException("two charts named " + name);
        }
        return "<div class=\"chart " + cssClass + "\" data-chart=\"" + Html.escape(name) + "\"></div>\n";
    }

    int size() {
        return options.size();
    }

    ObjectNode toJson() {
        ObjectNode charts = JsonNodeFactory.instance.objectNode();
        options.forEach(charts::set);
        return charts;
    }
}
