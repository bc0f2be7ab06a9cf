package dev.starling.exec.run;

import dev.starling.exec.QueryContext;
import dev.starling.exec.Settings;
import dev.starling.exec.accel.Accelerator;
import dev.starling.exec.accel.DeviceInputs;
import dev.starling.exec.accel.DevicePlan;
import dev.starling.exec.accel.GroupsWanted;
import dev.starling.exec.accel.Placement;
import dev.starling.exec.accel.Placer;
import dev.starling.exec.plan.AggregateNode;
import dev.starling.exec.plan.PlanEstimates;
import dev.starling.exec.plan.PlanNode;
import dev.starling.exec.plan.SortNode;
import dev.starling.exec.vector.Batch;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * An accelerator standing in for the GPU in the executor's tests: its placer puts on the "device"
 * only what a test's {@link #aggregatePlaced}, {@link #rowsPlaced} and {@link #sortPlaced} say
 * (nothing, unless overridden), and each kind of run fails the test unless the test overrides it.
 */
abstract class StandInAccelerator implements Accelerator {
    Placement aggregatePlaced(AggregateNode node, GroupsWanted wanted) {
        return Placement.cpu("test");
    }

    Placement rowsPlaced(PlanNode top, SortNode sort) {
        return Placement.cpu("test");
    }

    Placement sortPlaced(SortNode node) {
        return Placement.cpu("test");
    }

    Placer placer() {
        return new Placer() {
            @Override
            public Placement aggregate(AggregateNode node, GroupsWanted wanted, PlanEstimates estimates, Settings settings) {
                return aggregatePlaced(node, wanted);
            }

            @Override
            public Placement rows(PlanNode top, SortNode sort, PlanEstimates estimates, Settings settings) {
                return rowsPlaced(top, sort);
            }

            @Override
            public Placement sort(SortNode node, PlanEstimates estimates, Settings settings) {
                return sortPlaced(node);
            }
        };
    }

    /**
     * A plan for the stand-in device that reads {@code inputs}, computes {@code above} over its
     * groups (null: nothing) and, by {@code sortsRows}, hands its rows back sorted or not.
     */
    static DevicePlan devicePlan(List<PlanNode> inputs, PlanNode above, boolean sortsRows) {
        return new DevicePlan() {
            @Override
            public String target() {
                return "test";
            }

            @Override
            public List<PlanNode> inputs() {
                return inputs;
            }

            @Override
            public boolean computesAbove(PlanNode node) {
                return above != null && node == above;
            }

            @Override
            public boolean sortsRows() {
                return sortsRows;
            }
        };
    }

    @Override
    public Optional<Batch> aggregate(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx) {
        throw new AssertionError("no aggregation is placed on the accelerator");
    }

    @Override
    public Optional<SharedPart> share(AggregateNode node, DevicePlan plan, DeviceInputs inputs, QueryContext ctx) {
        throw new AssertionError("nothing is shared");
    }

    @Override
    public Optional<Batch> rows(PlanNode top, DevicePlan plan, DeviceInputs inputs, BitSet needed, QueryContext ctx) {
        throw new AssertionError("no rows are placed on the accelerator");
    }

    @Override
    public Optional<int[]> sort(SortNode node, Batch rows, DevicePlan plan, QueryContext ctx) {
        throw new AssertionError("no sort is placed on the accelerator");
    }
}
