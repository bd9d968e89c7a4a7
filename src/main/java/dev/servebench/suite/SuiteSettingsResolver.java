package dev.servebench.suite;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** Injects {@link SuiteSettings} read from JUnit configuration parameters, then system properties. */
final class SuiteSettingsResolver implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == SuiteSettings.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return SuiteSettings.from(context::getConfigurationParameter);
    }
}
