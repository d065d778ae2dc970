// What the `iap` executable needs besides this library, so it depends on IAPTool alone: the
// lean tool library (catalog selection, outcomes, exit statuses, generation and conversion jobs),
// the generation options its flags name, and the descriptor writes it says everything with.
@_exported import CatalogTool
@_exported import struct CodeGeneration.GenerationOptions
@_exported import enum Support.Descriptor
