package dev.servebench.kernels.results;

import java.util.ArrayList;
import java.util.List;

/** The numbers to reach, evaluated on whatever points the run measured. */
final class TargetChecks {

    private static final String GLM5_TP8 = "6144x256x256x8";

    private TargetChecks() {
    }

    static List<TargetCheck> of(List<DequantFigure> dequant, List<MoeFigure> moe, List<AllreduceFigure> allreduce) {
        List<TargetCheck> checks = new ArrayList<>();
        for (DequantFigure d : dequant) {
            if (d.backend().equals("native") && d.tensorBytes() >= KernelFigures.DEQUANT_TARGET_BYTES
                    && d.ratioToCopy() != null) {
                checks.add(TargetCheck.atLeast("NVFP4 dequant GB/s / memcpy GB/s",
                        d.output() + " " + d.layout() + " " + d.rows() + "x" + d.k() + " threads=" + d.threads(),
                        d.ratioToCopy(), 0.8));
            }
        }
        for (MoeFigure m : moe) {
            if (m.backend().equals("native") && m.shape().equals(GLM5_TP8) && (m.tokens() == 64 || m.tokens() == 256)) {
                String point = "GLM-5 TP8 T=" + m.tokens() + " threads=" + m.threads();
                if (m.vsGgmlF16() != null) {
                    checks.add(TargetCheck.atLeast("MoE native / ggml F16 mul_mat_id throughput", point,
                            m.vsGgmlF16(), 1.0));
                }
                if (m.vsGgmlQ4_0() != null) {
                    checks.add(TargetCheck.atLeast("MoE native / ggml Q4_0 mul_mat_id throughput", point,
                            m.vsGgmlQ4_0(), 0.8));
                }
                if (m.vsGgmlQ4_0Repacked() != null) {
                    checks.add(TargetCheck.atLeast("MoE native / ggml Q4_0 repacked (engine path) throughput",
                            point, m.vsGgmlQ4_0Repacked(), 0.8));
                }
            }
        }
        for (AllreduceFigure a : allreduce) {
            if (a.backend().equals("native") && a.ranks() == 2 && a.bytes() >= KernelFigures.ALLREDUCE_TARGET_BYTES
                    && a.busbwToCopy() != null) {
                checks.add(TargetCheck.atLeast("allreduce busbw / memcpy per-thread GB/s",
                        "N=2 " + a.bytes() + " B " + a.algorithm() + " " + a.placement(), a.busbwToCopy(), 0.5));
            }
        }
        return checks;
    }
}
