package dev.starling.engine;

import dev.starling.exec.BackendMode;
import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.accel.Placer;
import dev.starling.exec.Settings;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.gpu.GpuBackend;
import dev.starling.gpu.cuda.DeviceProfile;
import dev.starling.gpu.plan.GpuPlanner;
import dev.starling.storage.Catalog;
import java.util.Optional;

/**
 * Places an engine's pipelines for the devices it has: with a GPU, by that GPU's planner (under the
 * named profile, if one is); without one but with a named profile, by that profile's planner where
 * the session forces the GPU (backend gpu or both) and on the CPU under auto, which never plans for
 * a device that is not here; with neither, on the CPU.
 */
final class DevicePlacer implements Placer {
    private final GpuPlanner gpu;
    private final boolean present;

    private DevicePlacer(GpuPlanner gpu, boolean present) {
        this.gpu = gpu;
        this.present = present;
    }

    static DevicePlacer of(GpuBackend backend, Optional<DeviceProfile> named, Catalog catalog) {
        if (backend != null) {
            return new DevicePlacer(backend.planner(named.orElse(backend.device().profile()), catalog), true);
        }
        return new DevicePlacer(named.map(p -> GpuPlanner.forProfile(p, catalog)).orElse(null), false);
    }

    /** The profile planned for, if any. */
    Optional<DeviceProfile> profile() {
        return Optional.ofNullable(gpu).map(GpuPlanner::profile);
    }

    @Override
    public Placement aggregate(AggregateNode node, GroupsWanted wanted, PlanEstimates estimates, Settings settings) {
        Placement cpu = withoutGpu(settings);
        return cpu != null ? cpu : gpu.aggregate(node, wanted, estimates, settings);
    }

    @Override
    public Placement rows(PlanNode top, SortNode sort, PlanEstimates estimates, Settings settings) {
        Placement cpu = withoutGpu(settings);
        return cpu != null ? cpu : gpu.rows(top, sort, estimates, settings);
    }

    @Override
    public Placement joinInput(PlanNode top, PlanEstimates estimates, Settings settings) {
        Placement cpu = withoutGpu(settings);
        return cpu != null ? cpu : gpu.joinInput(top, estimates, settings);
    }

    @Override
    public Placement sort(SortNode node, PlanEstimates estimates, Settings settings) {
        Placement cpu = withoutGpu(settings);
        return cpu != null ? cpu : gpu.sort(node, estimates, settings);
    }

    @Override
    public boolean weighs(Settings settings) {
        return withoutGpu(settings) == null;
    }

    /** The CPU placement that stands for every pipeline when the GPU's planner is not asked; else null. */
    private Placement withoutGpu(Settings settings) {
        if (settings.backend() == BackendMode.CPU) {
            return Placement.cpu("session backend is cpu");
        }
        if (gpu == null) {
            return Placement.cpu("no GPU");
        }
        if (!present && settings.backend() == BackendMode.AUTO) {
            return Placement.cpu("no GPU here; profile " + gpu.profile().name()
                    + " is planned for under SET backend = 'gpu' or 'both'");
        }
        return null;
    }
}
