package dev.servebench.cli;

import dev.servebench.kernels.bench.KernelMode;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** {@code smoke} or {@code full}, as the profiles' {@code -Dservebench.kernels.mode} spells them. */
final class KernelModeConverter implements ITypeConverter<KernelMode> {

    @Override
    public KernelMode convert(String value) {
        try {
            return KernelMode.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
