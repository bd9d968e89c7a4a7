package dev.servebench.report.html;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Properties;

/**
 * Apache ECharts as the npm package ships it, read from the {@code org.webjars.npm:echarts} jar on the
 * classpath: the full {@code dist/echarts.min.js} (it bundles zrender) and its NOTICE. Read once, then kept.
 *
 * @param version e.g. 5.3.1, from the webjar's pom.properties
 * @param script  echarts.min.js, with its own licence header
 * @param notice  the Apache NOTICE the licence asks redistributors to keep
 */
record EchartsBundle(String version, String script, String notice) {

    private static final String POM_PROPERTIES = "META-INF/maven/org.webjars.npm/echarts/pom.properties";

    EchartsBundle {
        // Inlined into a <script> element, the library must not contain what ends one.
        if (script.toLowerCase(Locale.ROOT).contains("</script") || script.contains("<!--")) {
            throw new IllegalStateException("echarts.min.js " + version + " contains </script or <!--; it cannot be"
                    + " inlined into an HTML script element");
        }
    }

    static EchartsBundle load() {
        return Holder.BUNDLE;
    }

    private static final class Holder {
        static final EchartsBundle BUNDLE = read();
    }

    private static EchartsBundle read() {
        Properties pom = new Properties();
        try (InputStream in = resource(POM_PROPERTIES)) {
            pom.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String version = pom.getProperty("version");
        String root = "META-INF/resources/webjars/echarts/" + version + "/";
        return new EchartsBundle(version, text(root + "dist/echarts.min.js"), text(root + "NOTICE"));
    }

    private static String text(String path) {
        try (InputStream in = resource(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + " from the ECharts webjar", e);
        }
    }

    private static InputStream resource(String path) {
        InputStream in = EchartsBundle.class.getClassLoader().getResourceAsStream(path);
        if (in == null) {
            throw new IllegalStateException(path + " is not on the classpath; the HTML report needs the"
                    + " org.webjars.npm:echarts dependency (see pom.xml)");
        }
        return in;
    }
}
