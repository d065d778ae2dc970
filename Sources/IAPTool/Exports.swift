// The lean tool library (catalog loading policy, generation, exit statuses) is part of this one:
// what imports IAPTool sees CatalogTool's types too.
@_exported import CatalogTool
