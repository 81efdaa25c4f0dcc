-- CreateTable
CREATE TABLE "migration_imports" (
    "id" TEXT NOT NULL,
    "shop_id" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'validated',
    "active_slot" TEXT,
    "row_count" INTEGER NOT NULL DEFAULT 0,
    "contract_count" INTEGER NOT NULL DEFAULT 0,
    "error_count" INTEGER NOT NULL DEFAULT 0,
    "error_message" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "migration_imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "migration_import_items" (
    "id" TEXT NOT NULL,
    "import_id" TEXT NOT NULL,
    "import_key" TEXT NOT NULL,
    "rows" INTEGER[],
    "status" TEXT NOT NULL DEFAULT 'pending',
    "contract_gid" TEXT,
    "customer_gid" TEXT,
    "error_column" TEXT,
    "error_message" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "migration_import_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "imported_contracts" (
    "shop_id" TEXT NOT NULL,
    "import_key" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'claimed',
    "contract_gid" TEXT,
    "import_id" TEXT NOT NULL,
    "claimed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "imported_contracts_pkey" PRIMARY KEY ("shop_id","import_key")
);

-- CreateIndex
CREATE INDEX "migration_imports_shop_id_created_at_idx" ON "migration_imports"("shop_id", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "migration_imports_shop_id_active_slot_key" ON "migration_imports"("shop_id", "active_slot");

-- CreateIndex
CREATE INDEX "migration_import_items_import_id_status_idx" ON "migration_import_items"("import_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "migration_import_items_import_id_import_key_key" ON "migration_import_items"("import_id", "import_key");

-- AddForeignKey
ALTER TABLE "migration_imports" ADD CONSTRAINT "migration_imports_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "migration_import_items" ADD CONSTRAINT "migration_import_items_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "migration_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "imported_contracts" ADD CONSTRAINT "imported_contracts_shop_id_fkey" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") ON DELETE CASCADE ON UPDATE CASCADE;
