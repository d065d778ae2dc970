public enum IAPCatalogPlaceholder {}
