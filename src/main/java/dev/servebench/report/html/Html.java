package dev.servebench.report.html;

import java.util.List;

/** HTML text building where every piece of data is escaped on its way in. */
final class Html {

    private Html() {
    }

    /** Text as HTML content or a double- or single-quoted attribute value. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** {@code <p class="...">text</p>}. */
    static String paragraph(String cssClass, String text) {
        return "<p class=\"" + cssClass + "\">" + escape(text) + "</p>\n";
    }

    /** A table of plain-text cells; {@code rowClasses} (may be empty) styles each row. */
    static String table(String cssClass, List<String> headers, List<List<String>> rows, List<String> rowClasses) {
        StringBuilder out = new StringBuilder("<div class=\"table-wrap\"><table class=\"").append(cssClass)
                .append("\">\n<thead><tr>");
        for (String header : headers) {
            out.append("<th>").append(escape(header)).append("</th>");
        }
        out.append("</tr></thead>\n<tbody>\n");
        for (int r = 0; r < rows.size(); r++) {
            List<String> row = rows.get(r);
            if (row.size() != headers.size()) {
                throw new IllegalArgumentException("row " + r + " has " + row.size() + " cells for " + headers.size()
                        + " columns");
            }
            out.append(rowClasses.isEmpty() ? "<tr>" : "<tr class=\"" + escape(rowClasses.get(r)) + "\">");
            for (String cell : row) {
                out.append("<td>").append(escape(cell)).append("</td>");
            }
            out.append("</tr>\n");
        }
        return out.append("</tbody></table></div>\n").toString();
    }

    /** {@code <section id=...><h2>heading</h2> body </section>}; {@code body} is HTML already. */
    static String section(String id, String heading, String body) {
        return "<section id=\"" + escape(id) + "\">\n<h2>" + escape(heading) + "</h2>\n" + body + "</section>\n";
    }
}
