package org.fixlab.engine.jvm;

/**
 * Argument types of {@link FirstCompileResolutionTest}'s methods that only the JIT loads. They are not nested in the
 * test class: JUnit loads a test class's nested classes while it looks for tests in them.
 */
final class SignatureArguments
{
    private SignatureArguments()
    {
    }

    static final class Unloaded
    {
    }

    static final class Preloaded
    {
    }
}
