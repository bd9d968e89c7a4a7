package dev.servebench.ci;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.codehaus.groovy.ast.CodeVisitorSupport;
import org.codehaus.groovy.ast.ModuleNode;
import org.codehaus.groovy.ast.expr.ArgumentListExpression;
import org.codehaus.groovy.ast.expr.ConstantExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.expr.GStringExpression;
import org.codehaus.groovy.ast.expr.MethodCallExpression;
import org.codehaus.groovy.control.CompilationUnit;
import org.codehaus.groovy.control.Phases;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The Jenkinsfile parses as Groovy, and every shell step it runs is a command of this repository: the Maven
 * wrapper with profiles the pom defines, or {@code bin/servebench} with subcommands and options the CLI
 * accepts (the same ones GateCommandTest, BaselineCommandTest and the perf suite's tests exercise).
 */
class JenkinsfileTest {

    private static final Path JENKINSFILE = Path.of("Jenkinsfile");

    @Test
    void everyShellStepIsARepositoryCommandThatParses() throws IOException {
        List<String> steps = shellSteps(Files.readString(JENKINSFILE));

        assertThat(steps).hasSizeGreaterThanOrEqualTo(5);
        String pom = Files.readString(Path.of("pom.xml"));
        for (String step : steps) {
            String command = step.replaceAll("\\$\\{[^}]+}", "X");
            if (command.startsWith("./mvnw ")) {
                assertThat(Path.of("mvnw")).isExecutable();
                Matcher profile = Pattern.compile("-P(\\w+)").matcher(command);
                while (profile.find()) {
                    assertThat(pom).as("profile %s of step %s", profile.group(1), step)
                            .contains("<id>" + profile.group(1) + "</id>");
                }
                // Every servebench property it sets is one the pom passes on (a typo would be ignored silently).
                Matcher property = Pattern.compile("-D(servebench\\.[\\w.-]+)=").matcher(command);
                while (property.find()) {
                    assertThat(pom).as("property %s of step %s", property.group(1), step)
                            .contains("<" + property.group(1) + ">");
                }
            } else if (command.startsWith("bin/servebench ")) {
                assertThat(Path.of("bin", "servebench")).isExecutable();
                String[] arguments = command.substring("bin/servebench ".length()).trim().split("\\s+");
                CommandLine cli = new CommandLine(new dev.servebench.cli.ServebenchCommand());
                assertThat(cli.parseArgs(arguments).subcommand()).as("subcommand of %s", step).isNotNull();
            } else {
                throw new AssertionError("shell step is not a repository command: " + step);
            }
        }
    }

    @Test
    void itDeclaresTheGpuAgentNightlyCronSpecMatrixAndPullRequestGate() throws IOException {
        String text = Files.readString(JENKINSFILE);
        assertThat(text).contains("label 'gpu'").contains("cron(").contains("matrix {")
                .contains("changeRequest target: 'main'").contains("junit ").contains("archiveArtifacts")
                .contains("publishHTML").contains("allure ").contains("copyArtifacts")
                .contains("SERVER_URL").contains("SERVER_IMAGE");
        boolean gatedSpec = false;
        for (String spec : extract(text, "values\\s+(.+)")) {
            for (String file : spec.split(",")) {
                Path path = Path.of(file.trim().replace("'", ""));
                assertThat(path).as("matrix spec").exists();
                if (path.getFileName().toString().endsWith("-gate.yaml")) {
                    // The pull-request gate must be able to judge: repeats >= 2 on the spec it gates.
                    gatedSpec = true;
                    assertThat(Files.readString(path)).containsPattern("(?m)^repeats:\\s*([2-9]|\\d\\d+)");
                }
            }
        }
        assertThat(gatedSpec).as("a -gate.yaml spec in the matrix for the nightly gate").isTrue();
        assertThat(text).contains("env.SPEC_FILE.endsWith('-gate.yaml')");
    }

    @Test
    void pullRequestsRunAnAbComparisonAgainstMainsBuildThatCanJudge() throws IOException {
        String text = Files.readString(JENKINSFILE);
        List<String> compares = shellSteps(text).stream().filter(s -> s.startsWith("bin/servebench compare ")).toList();

        assertThat(compares).hasSize(1);
        String[] arguments = compares.getFirst().split("\\s+");
        CommandLine.ParseResult parsed = new CommandLine(new dev.servebench.cli.ServebenchCommand())
                .parseArgs(java.util.Arrays.copyOfRange(arguments, 1, arguments.length)).subcommand();
        assertThat(parsed.matchedPositionalValue(0, Path.of("missing"))).exists();
        Path a = parsed.matchedOptionValue("--a-target", Path.of("missing"));
        Path b = parsed.matchedOptionValue("--b-target", Path.of("missing"));
        assertThat(a).exists();
        assertThat(b).exists();
        // Side A runs the jar main's build archived, which the stage copies to main-build/.
        assertThat(Files.readString(a)).contains("main-build/target/servebench.jar");
        assertThat(text).contains("filter: 'target/servebench.jar', target: 'main-build'")
                .contains("archiveArtifacts artifacts: 'target/servebench.jar, ");
        int rounds = parsed.matchedOptionValue("--rounds", 0);
        assertThat(rounds).as("rounds enough to judge").isGreaterThanOrEqualTo(dev.servebench.baseline.PairedComparison.MIN_ROUNDS);
        int stage = text.indexOf("stage('A/B against main')");
        assertThat(text.substring(stage, text.indexOf("steps", stage))).contains("changeRequest target: 'main'");
    }

    @Test
    void pullRequestsThatTouchTheKernelsRunAKernelAbComparisonAgainstMainsLibrary() throws IOException {
        String text = Files.readString(JENKINSFILE);
        List<String> compares = shellSteps(text).stream().filter(s -> s.startsWith("bin/servebench kernels compare "))
                .toList();

        assertThat(compares).hasSize(1);
        String[] arguments = compares.getFirst().split("\\s+");
        CommandLine.ParseResult parsed = new CommandLine(new dev.servebench.cli.ServebenchCommand())
                .parseArgs(java.util.Arrays.copyOfRange(arguments, 1, arguments.length)).subcommand().subcommand();
        // A is main's library as its build archived it (copied to main-build/), B this build's.
        assertThat(parsed.matchedOptionValue("--a-lib", Path.of("missing")))
                .isEqualTo(Path.of("main-build/target/native/libservebench_kernels.so"));
        assertThat(parsed.matchedOptionValue("--b-lib", Path.of("missing")))
                .isEqualTo(Path.of("target/native/libservebench_kernels.so"));
        assertThat(text).contains("filter: 'target/native/libservebench_kernels.so',")
                .contains("archiveArtifacts artifacts: 'target/servebench.jar, target/native/libservebench_kernels.so'");
        int rounds = parsed.matchedOptionValue("--rounds", 0);
        assertThat(rounds).as("rounds enough to judge").isGreaterThanOrEqualTo(dev.servebench.baseline.PairedComparison.MIN_ROUNDS);
        int stage = text.indexOf("stage('Kernel A/B against main')");
        assertThat(text.substring(stage, text.indexOf("steps", stage))).contains("changeRequest target: 'main'")
                .contains("changeset 'native/**'");
    }

    static List<String> shellSteps(String groovy) {
        CompilationUnit unit = new CompilationUnit();
        unit.addSource("Jenkinsfile", groovy);
        unit.compile(Phases.CONVERSION);
        ModuleNode module = unit.getAST().getModules().getFirst();
        List<String> steps = new ArrayList<>();
        module.getStatementBlock().visit(new CodeVisitorSupport() {
            @Override
            public void visitMethodCallExpression(MethodCallExpression call) {
                if (call.getMethodAsString() != null && call.getMethodAsString().equals("sh")
                        && call.getArguments() instanceof ArgumentListExpression arguments) {
                    Expression first = arguments.getExpression(0);
                    switch (first) {
                        case ConstantExpression constant -> steps.add(constant.getText());
                        case GStringExpression gstring -> steps.add(gstring.getText());
                        default -> throw new AssertionError("sh step with a computed command: " + first.getText());
                    }
                }
                super.visitMethodCallExpression(call);
            }
        });
        return steps;
    }

    private static List<String> extract(String text, String regex) {
        List<String> found = new ArrayList<>();
        Matcher matcher = Pattern.compile(regex).matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }
}
