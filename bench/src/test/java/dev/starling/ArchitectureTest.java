package dev.starling;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The layout that shows the architecture (docs/ARCHITECTURE.md): storage, then the execution
 * contract and CPU backend, then the GPU runtime and the planner (neither using the other), then
 * the embedded engine, then the server, each using only those below it; the shell (bin/starling-sql
 * and the console's line editing) on the execution contract's results alone, used by the server; no
 * package cycles; the plan and expression contract free of Calcite and device types; one name per
 * concept.
 */
class ArchitectureTest {
    private static final JavaClasses PRODUCT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.starling.storage", "dev.starling.exec", "dev.starling.gpu", "dev.starling.planner",
                    "dev.starling.engine", "dev.starling.shell", "dev.starling.server");

    @Test
    void noPackageCycles() {
        slices().matching("dev.starling.(**)").should().beFreeOfCycles().check(PRODUCT);
    }

    @Test
    void eachLayerUsesOnlyThoseBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("storage").definedBy("dev.starling.storage..")
                .layer("exec").definedBy("dev.starling.exec..")
                .layer("gpu").definedBy("dev.starling.gpu..")
                .layer("planner").definedBy("dev.starling.planner..")
                .layer("engine").definedBy("dev.starling.engine..")
                .layer("shell").definedBy("dev.starling.shell..")
                .layer("server").definedBy("dev.starling.server..")
                .whereLayer("server").mayNotBeAccessedByAnyLayer()
                .whereLayer("shell").mayOnlyBeAccessedByLayers("server")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("server")
                .whereLayer("planner").mayOnlyBeAccessedByLayers("engine", "server")
                .whereLayer("gpu").mayOnlyBeAccessedByLayers("engine", "server")
                .whereLayer("exec").mayOnlyBeAccessedByLayers("gpu", "planner", "engine", "shell", "server")
                .check(PRODUCT);
    }

    @Test
    void theExecutionContractKnowsNeitherCalciteNorTheDevice() {
        noClasses().that().resideInAPackage("dev.starling.exec..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.calcite..", "jcuda..")
                .check(PRODUCT);
        noClasses().that().resideInAnyPackage("dev.starling.planner..", "dev.starling.engine..", "dev.starling.server..")
                .should().dependOnClassesThat().resideInAnyPackage("jcuda..")
                .check(PRODUCT);
    }

    @Test
    void oneNamePerConcept() {
        Map<String, List<String>> byName = PRODUCT.stream()
                .filter(c -> c.isTopLevelClass())
                .collect(Collectors.groupingBy(JavaClass::getSimpleName,
                        Collectors.mapping(JavaClass::getName, Collectors.toList())));
        Map<String, List<String>> repeated = byName.entrySet().stream().filter(e -> e.getValue().size() > 1)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertEquals(Map.of(), repeated, "top-level classes sharing a name");
    }
}
