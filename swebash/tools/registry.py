"""ToolRegistry: the tools the model may call, filtered by enabled category.

Built-ins register through ``register`` exactly as third-party tools would. ``task_complete``
(category ``meta``) is offered whenever any other category is on; with every category off the
registry is empty and the engine is a plain chat engine (no tools in requests).
"""

from __future__ import annotations

from swebash.api import ToolSchema
from swebash.config import ToolConfig
from swebash.tools.base import Category, ToolExecutor, ToolSource


class ToolRegistry:
    def __init__(self, config: ToolConfig) -> None:
        self.config = config
        self._tools: dict[str, ToolExecutor] = {}
        self._sources: list[ToolSource] = []

    def register(self, tool: ToolExecutor) -> None:
        self._tools[tool.name] = tool

    def add_source(self, source: ToolSource) -> None:
        """Tools that come and go (MCP servers); they are on whatever the categories say."""
        self._sources.append(source)

    def enabled_categories(self) -> tuple[Category, ...]:
        cats: list[Category] = []
        if self.config.enable_fs:
            cats.append("fs")
        if self.config.enable_exec:
            cats.append("exec")
        if self.config.enable_web:
            cats.append("web")
        if cats:
            cats.append("meta")
        return tuple(cats)

    def enabled(self) -> list[ToolExecutor]:
        cats = self.enabled_categories()
        return [t for t in self._tools.values() if t.category in cats] + [
            t for source in self._sources for t in source.offered()]

    def definitions(self) -> list[ToolSchema]:
        return [t.definition() for t in self.enabled()]

    def names(self) -> list[str]:
        return [t.name for t in self.enabled()]

    def get(self, name: str) -> ToolExecutor | None:
        """The tool the model calls ``name``: a built-in whose category is on, or any tool of
        a source — offered (``mcp_load_tools`` exists only as offered) or callable by name."""
        tool = self._tools.get(name)
        if tool is not None:
            return tool if tool.category in self.enabled_categories() else None
        for source in self._sources:
            for tool in (*source.offered(), *source.tools()):
                if tool.name == name:
                    return tool
        return None


def default_registry(config: ToolConfig) -> ToolRegistry:
    from swebash.tools.edit import EditFileTool, WriteFileTool
    from swebash.tools.exec import ExecuteCommandTool
    from swebash.tools.fs import FilesystemTool
    from swebash.tools.search import ListFilesTool, SearchTextTool, TaskCompleteTool
    from swebash.tools.web import WebSearchTool

    registry = ToolRegistry(config)
    for tool in (FilesystemTool(), ExecuteCommandTool(), WebSearchTool(), WriteFileTool(),
                 EditFileTool(), SearchTextTool(), ListFilesTool(), TaskCompleteTool()):
        registry.register(tool)
    return registry
